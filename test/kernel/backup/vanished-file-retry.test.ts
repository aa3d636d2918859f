// A file listed for a backup that vanishes before it is archived (a rotated log removed meanwhile) makes
// the backup be written again from a new listing, up to VANISHED_FILE_ATTEMPTS times. The archiver is
// wrapped to remove a real file of the state at the chosen attempt, right before the real archiver reads
// it: the ENOENT is tar's own, with no timing race.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { selectArchiveContents } from '../../../kernel/backup/contents.ts';
import { createBackup, VANISHED_FILE_ATTEMPTS } from '../../../kernel/backup/create-backup.ts';
import { writeEncryptedArchive } from '../../../kernel/backup/encrypt.ts';
import { BackupError } from '../../../kernel/backup/errors.ts';
import { prepareRestore } from '../../../kernel/backup/restore.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { populateState, serverKeys } from './helpers.ts';

/** A rotated audit log: the kind of file log rotation removes while a backup runs. */
const ROTATED = 'logs/audit.log.2026-01-01T00-00-00-000Z.0.gz';

describe('backup: a file that vanishes while it is archived', () => {
  const { privateKey, publicKey } = serverKeys();
  let state: { dir: string; cleanup: () => void } | undefined;
  afterEach(() => state?.cleanup());

  function populated(): string {
    state = tempStateDir('ucmcp-vanish-');
    populateState(state.dir);
    return state.dir;
  }

  /**
   * The real archiver, counting its calls; on the attempts `vanishOn` names, ROTATED is removed after the
   * listing and before the archive reads it (and put back afterwards when `reappear`, as a new rotation
   * would, so that it vanishes again from the next listing).
   */
  function vanishing(dir: string, vanishOn: (attempt: number) => boolean, reappear = false) {
    const calls = { n: 0 };
    const archive: typeof writeEncryptedArchive = async (a) => {
      calls.n++;
      if (!vanishOn(calls.n)) return writeEncryptedArchive(a);
      assert.ok(
        a.entries.some((e) => e.path === ROTATED),
        'the file was listed for this attempt',
      );
      rmSync(join(dir, ROTATED));
      try {
        return await writeEncryptedArchive(a);
      } finally {
        if (reappear) writeFileSync(join(dir, ROTATED), 'gz', { mode: 0o600 });
      }
    };
    return { archive, calls };
  }

  const leftovers = (dir: string): string[] =>
    existsSync(join(dir, 'backups')) ? readdirSync(join(dir, 'backups')) : [];

  it('one vanished file: the backup is made again from a new listing and succeeds on the second attempt', async () => {
    const dir = populated();
    const { archive, calls } = vanishing(dir, (n) => n === 1);
    const r = await createBackup({ stateDir: dir, publicKey, hostname: 'uc1', archive });
    assert.equal(calls.n, 2);
    assert.equal(r.files, selectArchiveContents(dir).files, 'the second listing, without the vanished file');
    assert.deepEqual(leftovers(dir).sort(), [basename(r.file), basename(r.sidecar)].sort());
    const p = await prepareRestore({ file: r.file, privateKey, stateDir: dir });
    try {
      assert.equal(p.extracted.files, r.files);
      assert.ok(existsSync(join(p.staging, 'logs', 'audit.log')));
      assert.ok(!existsSync(join(p.staging, ROTATED)));
    } finally {
      p.discard();
    }
  });

  it(`a file that vanishes every time: a coded error after ${VANISHED_FILE_ATTEMPTS} attempts, nothing left`, async () => {
    const dir = populated();
    const { archive, calls } = vanishing(dir, () => true, true);
    await assert.rejects(
      createBackup({ stateDir: dir, publicKey, hostname: 'uc1', archive }),
      (err: unknown) => {
        assert.ok(err instanceof BackupError, String(err));
        assert.equal(err.reason, 'FILES_VANISHING');
        assert.match(err.message, new RegExp(`${VANISHED_FILE_ATTEMPTS} attempts`));
        assert.ok(err.message.includes(ROTATED), err.message);
        assert.ok(!err.message.includes(dir), 'the state directory is not named');
        return true;
      },
    );
    assert.equal(calls.n, VANISHED_FILE_ATTEMPTS);
    assert.deepEqual(leftovers(dir), [], 'no backup, sidecar or temporary file is left');
  });

  it('an error other than a vanished file is not retried', async () => {
    const dir = populated();
    let calls = 0;
    const denied = Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
    await assert.rejects(
      createBackup({
        stateDir: dir,
        publicKey,
        hostname: 'uc1',
        archive: () => {
          calls++;
          return Promise.reject(denied);
        },
      }),
      (err: unknown) => err === denied,
    );
    assert.equal(calls, 1);
    assert.deepEqual(leftovers(dir), []);
  });
});
