import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBackup, type BackupResult } from '../../../kernel/backup/create-backup.ts';
import { decryptSftpPassword } from '../../../kernel/backup/sftp-password.ts';
import { command as encryptCommand } from '../../../kernel/cli/commands/encrypt-sftp-password.ts';
import { command as restoreCommand } from '../../../kernel/cli/commands/backup-restore.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import { readAudit } from '../../helpers/kernel.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { fakeIo, populateState, serverKeys, treeHash } from './helpers.ts';

describe('backup_restore command', () => {
  const state = tempStateDir('ucmcp-cli-');
  const keys = tempStateDir('ucmcp-cli-keys-');
  after(() => {
    state.cleanup();
    keys.cleanup();
  });
  let backup: BackupResult;
  let atBackup: Map<string, string>;
  const keyFile = join(keys.dir, 'operator_copy_of_rsa_private.pem');
  const env = (): NodeJS.ProcessEnv => ({ STATE_DIR: state.dir, ENV_FILE: '' });
  const restorable = (rel: string): boolean =>
    !/^(backups|schema-cache|restore_|replaced_|server\.pid)/.test(rel) &&
    !rel.startsWith('profiles/_default') &&
    rel !== 'logs/app.log' &&
    !rel.endsWith('.tmp') &&
    !rel.startsWith('logs/restored_');

  before(async () => {
    populateState(state.dir);
    writeFileSync(keyFile, cachedRsaKeyPair().privatePem, { mode: 0o600 });
    backup = await createBackup({ stateDir: state.dir, hostname: 'uc1' });
    atBackup = treeHash(state.dir, (rel) => !restorable(rel));
  });

  it('usage errors exit 2; a wrong key exits 1 with a clear message and changes nothing', async () => {
    const io = fakeIo(env());
    assert.equal(await runCommandWith(restoreCommand, ['--file', backup.file], io), 2);
    assert.match(io.stderr, /--file and --key are required/);

    const before_ = treeHash(state.dir);
    const other = join(keys.dir, 'other.pem');
    writeFileSync(other, cachedRsaKeyPair('other').privatePem);
    const wrong = fakeIo(env());
    assert.equal(
      await runCommandWith(
        restoreCommand,
        ['--file', backup.file, '--key', other, '--replace', '--yes'],
        wrong,
      ),
      1,
    );
    assert.match(wrong.stderr, /\nbackup_restore: wrong key: .*\nNothing was changed\.\n$/s);
    assert.ok(!wrong.stderr.includes('PRIVATE KEY'));

    writeFileSync(
      join(keys.dir, 'junk.pem'),
      '-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----\n',
    );
    const junk = fakeIo(env());
    assert.equal(
      await runCommandWith(
        restoreCommand,
        ['--file', backup.file, '--key', join(keys.dir, 'junk.pem')],
        junk,
      ),
      1,
    );
    assert.match(junk.stderr, /is not an unencrypted RSA private key in PEM form/);
    assert.ok(!junk.stderr.includes('c2VjcmV0'), 'the key file content is never echoed');
    assert.deepEqual(treeHash(state.dir), before_);
  });

  it('--replace: declined on the terminal, or no terminal and no --yes: exit 3, nothing changed', async () => {
    const before_ = treeHash(state.dir);
    const no = fakeIo(env(), { interactive: true, answers: ['n'] });
    assert.equal(
      await runCommandWith(restoreCommand, ['--file', backup.file, '--key', keyFile, '--replace'], no),
      3,
    );
    assert.match(
      no.questions[0] ?? '',
      /Replace the live state in .* with backup .*\(no running server was found\)/,
    );
    const script = fakeIo(env());
    assert.equal(
      await runCommandWith(restoreCommand, ['--file', backup.file, '--key', keyFile, '--replace'], script),
      3,
    );
    assert.match(script.stderr, /pass --yes/);
    assert.deepEqual(treeHash(state.dir), before_);
  });

  it('--replace --yes: the live state becomes the backup; the replaced files and the live audit log are kept', async () => {
    // Damage the live state after the backup: a lost client, a changed report, a new profile, no .env.
    rmSync(join(state.dir, 'clients', 'alice'), { recursive: true });
    writeFileSync(join(state.dir, 'reports', 'alice', 'audit @2026.md'), 'overwritten');
    writeFileSync(join(state.dir, 'profiles', 'new.json'), '{}');
    rmSync(join(state.dir, '.env'));
    writeFileSync(join(state.dir, 'logs', 'audit.log'), '{"event":"SERVER","status":"LATER"}\n', {
      flag: 'a',
    });
    const liveAudit = readFileSync(join(state.dir, 'logs', 'audit.log'), 'utf8');

    const io = fakeIo(env());
    const code = await runCommandWith(
      restoreCommand,
      ['--file', backup.file, '--key', keyFile, '--replace', '--yes'],
      io,
    );
    assert.equal(code, 0, io.stderr);
    assert.match(io.stdout, /Restored backup .* over/);
    assert.match(io.stdout, /Start the server \(or its container\) again/);

    const now = treeHash(state.dir, (rel) => !restorable(rel) || rel === 'logs/audit.log');
    const expected = new Map([...atBackup].filter(([rel]) => rel !== 'logs/audit.log'));
    assert.deepEqual(now, expected, 'every restorable file is as it was at backup time');
    assert.ok(existsSync(join(state.dir, 'profiles', '_default', 'admin.json')), 'shipped defaults stay');

    const audit = readFileSync(join(state.dir, 'logs', 'audit.log'), 'utf8');
    assert.ok(audit.startsWith(liveAudit), 'the live audit log is never rolled back');
    assert.equal(readAudit(state.dir).at(-1)?.status, 'BACKUP_RESTORED');
    assert.equal(
      readFileSync(join(state.dir, 'logs', `restored_${backup.id}`, 'audit.log'), 'utf8'),
      '{"event":"SERVER"}\n',
      "the backup's audit log is beside it",
    );
    const replaced = readdirSync(state.dir).filter((f) => f.startsWith('replaced_'));
    assert.equal(replaced.length, 1);
    assert.equal(
      readFileSync(join(state.dir, replaced[0] as string, 'reports', 'alice', 'audit @2026.md'), 'utf8'),
      'overwritten',
    );
    assert.deepEqual(
      readdirSync(state.dir).filter((f) => f.startsWith('.restore-')),
      [],
    );
  });
});

describe('encrypt_sftp_password command', () => {
  const state = tempStateDir('ucmcp-encpw-');
  after(() => state.cleanup());
  const { privateKey } = serverKeys();

  before(() => populateState(state.dir));

  it('reads the first line of stdin and prints a value only the private key opens', async () => {
    const io = fakeIo({ STATE_DIR: state.dir, ENV_FILE: '' }, { stdin: 'S3cret pass\n' });
    assert.equal(await runCommandWith(encryptCommand, [], io), 0, io.stderr);
    const m = /^BACKUP_SFTP_PASSWORD_ENC=([A-Za-z0-9+/=]+)\n$/.exec(io.stdout);
    assert.ok(m?.[1], io.stdout);
    assert.equal(decryptSftpPassword(m[1], privateKey), 'S3cret pass');
    assert.ok(!io.stdout.includes('S3cret') && !io.stderr.includes('S3cret'));
  });

  it('on a terminal: asks twice without echo, refuses answers that differ or an empty one', async () => {
    const same = fakeIo(
      { STATE_DIR: state.dir, ENV_FILE: '' },
      { interactive: true, answers: ['pw-1', 'pw-1'] },
    );
    assert.equal(await runCommandWith(encryptCommand, [], same), 0);
    assert.deepEqual(same.questions, ['SFTP password: ', 'Again: ']);
    const differ = fakeIo(
      { STATE_DIR: state.dir, ENV_FILE: '' },
      { interactive: true, answers: ['pw-1', 'pw-2'] },
    );
    assert.equal(await runCommandWith(encryptCommand, [], differ), 1);
    assert.match(differ.stderr, /differ/);
    const empty = fakeIo({ STATE_DIR: state.dir, ENV_FILE: '' }, { stdin: '' });
    assert.equal(await runCommandWith(encryptCommand, [], empty), 1);
    const noKey = fakeIo({ STATE_DIR: join(state.dir, 'nowhere'), ENV_FILE: '' }, { stdin: 'x\n' });
    assert.equal(await runCommandWith(encryptCommand, [], noKey), 1);
    assert.match(noKey.stderr, /not a readable public key/);
  });

  it('the scripts/ entry point reads a piped password', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/encrypt_sftp_password.ts'], {
      cwd: PROJECT_ROOT,
      input: 'piped-pw\n',
      env: { ...process.env, STATE_DIR: state.dir, ENV_FILE: '' },
      encoding: 'utf8',
    });
    const value = out.trim().replace(/^BACKUP_SFTP_PASSWORD_ENC=/, '');
    assert.equal(decryptSftpPassword(value, createPrivateKey(cachedRsaKeyPair().privatePem)), 'piped-pw');
  });
});
