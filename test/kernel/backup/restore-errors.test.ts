import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBackup, type BackupResult } from '../../../kernel/backup/create-backup.ts';
import { BackupError, type BackupErrorReason } from '../../../kernel/backup/errors.ts';
import { MAGIC } from '../../../kernel/backup/format.ts';
import { prepareRestore } from '../../../kernel/backup/restore.ts';
import { sha512File, sidecarText } from '../../../kernel/backup/sidecar.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { populateState, serverKeys, treeHash } from './helpers.ts';

// Each damaged archive must give its own clear error and leave the state directory exactly as it was
// (compared file by file, modes and content, before and after).

describe('restore refuses damaged archives and changes nothing', () => {
  const state = tempStateDir('ucmcp-restore-');
  const incoming = tempStateDir('ucmcp-incoming-');
  after(() => {
    state.cleanup();
    incoming.cleanup();
  });
  const { privateKey, publicKey } = serverKeys();
  let backup: BackupResult;
  let before_: Map<string, string>;

  before(async () => {
    populateState(state.dir);
    backup = await createBackup({ stateDir: state.dir, publicKey, hostname: 'uc1' });
    before_ = treeHash(state.dir);
  });

  /** A copy of the good backup (and its sidecar) to damage. */
  const copy = (name: string): { file: string; sidecar: string } => {
    const dir = join(incoming.dir, name);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, basename(backup.file));
    copyFileSync(backup.file, file);
    copyFileSync(backup.sidecar, `${file}.sha512`);
    return { file, sidecar: `${file}.sha512` };
  };
  const resign = async (f: { file: string; sidecar: string }): Promise<void> => {
    writeFileSync(f.sidecar, sidecarText(await sha512File(f.file), f.file));
  };
  const flipByte = (file: string, at: (size: number) => number): void => {
    const buf = readFileSync(file);
    const i = at(buf.length);
    buf[i] = (buf[i] as number) ^ 0x01;
    writeFileSync(file, buf);
  };
  const refused = async (
    f: { file: string },
    reason: BackupErrorReason,
    message: RegExp,
    key = privateKey,
  ): Promise<void> => {
    await assert.rejects(
      prepareRestore({ file: f.file, privateKey: key, stateDir: state.dir }),
      (err: unknown) => {
        assert.ok(err instanceof BackupError, String(err));
        assert.equal(err.reason, reason, err.message);
        assert.match(err.message, message);
        return true;
      },
    );
    assert.deepEqual(treeHash(state.dir), before_, 'the state directory is unchanged');
  };

  it('the good copy restores (control)', async () => {
    const f = copy('good');
    const p = await prepareRestore({ file: f.file, privateKey, stateDir: state.dir });
    p.discard();
    assert.deepEqual(treeHash(state.dir), before_);
  });

  it('wrong key: names the key the backup needs', async () => {
    await refused(copy('wrong-key'), 'WRONG_KEY', /wrong key.*archived key/, serverKeys('other').privateKey);
  });

  it('truncated archive with its original sidecar: the sidecar check fails first', async () => {
    const f = copy('truncated');
    truncateSync(f.file, backup.bytes - 100);
    await refused(f, 'SIDECAR_MISMATCH', /does not match its SHA-512 sidecar/);
  });

  it('truncated archive with a matching sidecar: reported as truncated', async () => {
    const f = copy('truncated-resigned');
    truncateSync(f.file, backup.bytes - 100);
    await resign(f);
    await refused(f, 'TRUNCATED', /truncated/);
  });

  it('archive cut inside its header: truncated', async () => {
    const f = copy('header-cut');
    truncateSync(f.file, 300);
    await resign(f);
    await refused(f, 'TRUNCATED', /truncated/);
  });

  it('one ciphertext byte changed (sidecar recomputed by the attacker): the GCM tag refuses it', async () => {
    const f = copy('tampered');
    flipByte(f.file, (size) => size - 200);
    await resign(f);
    await refused(f, 'TAMPERED', /failed authentication/);
  });

  it('one header byte changed (its metadata is authenticated too)', async () => {
    const f = copy('tampered-header');
    const buf = readFileSync(f.file);
    const at = buf.indexOf(Buffer.from('"created_at":"')) + 16;
    flipByte(f.file, () => at);
    await resign(f);
    await refused(f, 'TAMPERED', /failed authentication/);
  });

  it('one byte changed, sidecar left alone: the sidecar check says so', async () => {
    const f = copy('tampered-sidecar');
    flipByte(f.file, (size) => Math.floor(size / 2));
    await refused(f, 'SIDECAR_MISMATCH', /truncated, altered/);
  });

  it('bad sidecars: missing, malformed, or for another file', async () => {
    const missing = copy('no-sidecar');
    rmSync(missing.sidecar);
    await refused(missing, 'SIDECAR_MISSING', /sidecar .* is missing/);
    const malformed = copy('bad-sidecar');
    writeFileSync(malformed.sidecar, 'not a digest\n');
    await refused(malformed, 'SIDECAR_MALFORMED', /does not hold a SHA-512 digest/);
    const other = copy('other-sidecar');
    writeFileSync(other.sidecar, `${'ab'.repeat(64)}  ${basename(other.file)}\n`);
    await refused(other, 'SIDECAR_MISMATCH', /expected abababab/);
  });

  it('a file that is not a backup at all', async () => {
    const f = copy('foreign');
    writeFileSync(f.file, Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(2000)]));
    await resign(f);
    await refused(f, 'NOT_A_BACKUP', /bad magic/);
    const v2 = copy('future-version');
    const buf = readFileSync(v2.file);
    buf[MAGIC.length] = 2;
    writeFileSync(v2.file, buf);
    await resign(v2);
    await refused(v2, 'UNSUPPORTED_VERSION', /version 2/);
  });
});
