import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createBackup } from '../../../kernel/backup/create-backup.ts';
import { MAGIC } from '../../../kernel/backup/format.ts';
import { backupName, parseBackupName, safeHostname } from '../../../kernel/backup/naming.ts';
import { applyReplace, finishSafeRestore, prepareRestore } from '../../../kernel/backup/restore.ts';
import { FileChangeJournal } from '../../../kernel/changes/change-journal.ts';
import { sampleChange } from '../../helpers/change-entry.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { populateState, serverKeys, treeHash } from './helpers.ts';

/** What a backup must not hold (contents.ts). */
const EXCLUDED = (rel: string): boolean =>
  rel === 'backups' ||
  rel.startsWith('backups/') ||
  rel === 'schema-cache' ||
  rel.startsWith('schema-cache/') ||
  rel === 'logs/app.log' ||
  rel.startsWith('restore_') ||
  rel.startsWith('profiles/_default') ||
  rel.endsWith('.tmp');

describe('backup naming', () => {
  it('backup_<YYYYMM>_<hostname>_<YYYYMMDD>_<HHMMSS>.tar.gz.enc in UTC, parsed back', () => {
    const n = backupName(new Date('2026-01-05T02:03:04.567Z'), 'uc1.example.com');
    assert.equal(n.file, 'backup_202601_uc1.example.com_20260105_020304.tar.gz.enc');
    assert.equal(n.id, '202601_uc1.example.com_20260105_020304');
    const back = parseBackupName(n.file);
    assert.equal(back?.id, n.id);
    assert.equal(back?.createdAt.toISOString(), '2026-01-05T02:03:04.000Z');
    assert.equal(
      parseBackupName('backup_202602_h_20260105_020304.tar.gz.enc'),
      undefined,
      'month must match',
    );
    assert.equal(parseBackupName('notes.txt'), undefined);
  });

  it('keeps the separator unambiguous whatever the host name', () => {
    assert.equal(safeHostname('my_host/../x'), 'my-host-..-x');
    assert.equal(safeHostname(''), 'host');
    const n = backupName(new Date('2026-01-05T00:00:00Z'), 'a_b');
    assert.equal(parseBackupName(n.file)?.hostname, 'a-b');
  });
});

const JOURNAL_ORIGIN = { client: 'alice', callId: 'c1', tool: 'cucm_axl_call', product: 'cucm' as const };
const journalAt = (stateDir: string): FileChangeJournal =>
  new FileChangeJournal({
    dir: join(stateDir, 'changes'),
    retentionMs: 86_400_000,
    maxBytesPerClient: 1 << 20,
    maxRecordBytes: 1 << 16,
  });

describe('backup format: round trip', () => {
  const state = tempStateDir('ucmcp-backup-');
  after(() => state.cleanup());
  const { privateKey, publicKey } = serverKeys();

  it('writes the archive with its sha512sum-format sidecar, readable only with the private key', async () => {
    populateState(state.dir);
    // The change journal, written by the kernel's own service.
    const journalled = await journalAt(state.dir).append(sampleChange(), JOURNAL_ORIGIN);
    const live = treeHash(state.dir, EXCLUDED);
    const r = await createBackup({
      stateDir: state.dir,
      publicKey,
      hostname: 'uc1',
      now: () => new Date('2026-03-04T05:06:07Z'),
    });
    assert.equal(basename(r.file), 'backup_202603_uc1_20260304_050607.tar.gz.enc');
    assert.equal(dirname(r.file), join(state.dir, 'backups'));
    assert.equal(r.id, '202603_uc1_20260304_050607');
    assert.equal(statSync(r.file).mode & 0o777, 0o600);
    const bytes = readFileSync(r.file);
    assert.ok(bytes.subarray(0, MAGIC.length).equals(MAGIC));
    for (const secret of ['AUTH_CLIENTS', 'All good.', 'BEGIN PRIVATE KEY', 'kkkkkkkk'])
      assert.ok(!bytes.includes(Buffer.from(secret)), `${secret} is not readable in the archive`);
    assert.equal(readFileSync(r.sidecar, 'utf8'), `${r.sha512}  ${basename(r.file)}\n`);
    // Any machine can check a copy with the standard tool.
    execFileSync('sha512sum', ['-c', '--status', basename(r.sidecar)], { cwd: dirname(r.file) });

    const p = await prepareRestore({ file: r.file, privateKey, stateDir: state.dir });
    assert.equal(p.id, r.id);
    assert.equal(p.hostname, 'uc1');
    const dest = finishSafeRestore(p, state.dir);
    assert.equal(dest, join(state.dir, `restore_${r.id}`));
    assert.deepEqual(treeHash(dest), live, 'restore_<id>/ holds exactly the selected state, modes included');
    assert.deepEqual(
      [...treeHash(state.dir, (rel) => rel.startsWith('restore_') || rel.startsWith('backups'))].filter(
        ([rel]) => !EXCLUDED(rel),
      ),
      [...live],
      'the live state is untouched',
    );
    assert.deepEqual(
      readdirSync(state.dir).filter((f) => f.startsWith('.restore-')),
      [],
      'no staging folder is left',
    );
    assert.ok(!readFileSync(join(dest, '.env'), 'utf8').includes('secret'));
    assert.ok(existsSync(join(dest, 'logs', 'audit.log')) && !existsSync(join(dest, 'logs', 'app.log')));
    assert.ok(!existsSync(join(dest, 'profiles', '_default')), 'shipped profiles are not state');
    assert.deepEqual(
      await journalAt(dest).get('alice', journalled.id),
      journalled,
      'the change journal is restored',
    );
  });

  it('names a same-second second backup one second later instead of overwriting', async () => {
    const at = () => new Date('2026-03-04T05:06:07Z');
    const r = await createBackup({ stateDir: state.dir, publicKey, hostname: 'uc1', now: at });
    assert.equal(basename(r.file), 'backup_202603_uc1_20260304_050608.tar.gz.enc');
  });

  it('reads the public key from the state directory by default (backups need only the public key)', async () => {
    const r = await createBackup({ stateDir: state.dir, hostname: 'uc1' });
    const p = await prepareRestore({ file: r.file, privateKey, stateDir: state.dir });
    p.discard();
    assert.ok(p.extracted.files > 5);
  });
});

describe('backup format: the change journal in an in-place restore', () => {
  const state = tempStateDir('ucmcp-backup-journal-');
  after(() => state.cleanup());
  const { privateKey, publicKey } = serverKeys();

  it("merges the backup's records into the live journal: changes made on nodes since the backup stay", async () => {
    populateState(state.dir);
    const journal = journalAt(state.dir);
    const old = await journal.append(sampleChange({ operation: 'addPhone' }), JOURNAL_ORIGIN);
    const r = await createBackup({ stateDir: state.dir, publicKey, hostname: 'uc1' });
    const since = await journal.append(sampleChange({ operation: 'removePhone' }), JOURNAL_ORIGIN);
    const p = await prepareRestore({ file: r.file, privateKey, stateDir: state.dir });
    const summary = applyReplace(p, state.dir);
    assert.ok(summary.restored.includes('changes/ (merged)'), summary.restored.join(', '));
    assert.deepEqual(
      (await journalAt(state.dir).list('alice')).changes.map((c) => c.id),
      [since.id, old.id],
    );
  });
});
