import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BackupError } from '../../../kernel/backup/errors.ts';
import { finishSafeRestore, prepareRestore } from '../../../kernel/backup/restore.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { encryptRaw, populateState, rawTarGz, serverKeys, treeHash, type RawEntry } from './helpers.ts';

// Anyone with the public key can make an archive that decrypts and authenticates, so the restore judges
// every entry itself: one bad entry fails the whole restore, and nothing is extracted anywhere.

describe('restore: entries a backup never holds are refused', () => {
  const state = tempStateDir('ucmcp-tarsafe-');
  const incoming = tempStateDir('ucmcp-tarsafe-in-');
  after(() => {
    state.cleanup();
    incoming.cleanup();
  });
  const { privateKey, publicKey } = serverKeys();
  let before_: Map<string, string>;
  before(() => {
    populateState(state.dir);
    before_ = treeHash(state.dir);
  });

  const good: RawEntry[] = [
    { path: 'secrets/', type: 'Directory' },
    { path: 'secrets/token_blacklist.json', type: 'File', body: '{}' },
  ];
  const cases: [string, RawEntry, RegExp][] = [
    ['an absolute path', { path: '/tmp/ucmcp-evil-abs', type: 'File', body: 'x' }, /absolute path/],
    ['a ".." path', { path: 'secrets/../../ucmcp-evil-dotdot', type: 'File', body: 'x' }, /relative segment/],
    ['a symlink', { path: 'secrets/link', type: 'SymbolicLink', linkpath: '/etc/passwd' }, /SymbolicLink/],
    ['a hard link', { path: 'secrets/hard', type: 'Link', linkpath: 'secrets/token_blacklist.json' }, /Link/],
    ['a FIFO', { path: 'secrets/fifo', type: 'FIFO' }, /FIFO/],
    ['code', { path: 'kernel/main.ts', type: 'File', body: 'process.exit()' }, /not a state path/],
    ['a backup', { path: 'backups/x.tar.gz.enc', type: 'File', body: 'x' }, /not a state path/],
    [
      'shipped profiles',
      { path: 'profiles/_default/admin.json', type: 'File', body: '{}' },
      /not a state path/,
    ],
    ['app.log', { path: 'logs/app.log', type: 'File', body: 'x' }, /not a state path/],
  ];

  for (const [what, entry, why] of cases) {
    it(`refuses ${what}`, async () => {
      const file = join(incoming.dir, `backup_${what.replace(/\W+/g, '-')}.tar.gz.enc`);
      encryptRaw(rawTarGz([...good, entry]), publicKey, file);
      await assert.rejects(prepareRestore({ file, privateKey, stateDir: state.dir }), (err: unknown) => {
        assert.ok(err instanceof BackupError);
        assert.equal(err.reason, 'UNSAFE_ENTRY', err.message);
        assert.match(err.message, why);
        assert.match(err.message, /nothing was restored/);
        return true;
      });
      assert.deepEqual(treeHash(state.dir), before_, 'the state directory is unchanged');
      assert.ok(
        !existsSync('/tmp/ucmcp-evil-abs') && !existsSync(join(state.dir, '..', 'ucmcp-evil-dotdot')),
      );
      assert.deepEqual(
        readdirSync(incoming.dir).filter((f) => !f.startsWith('backup_')),
        [],
      );
    });
  }

  it('the same archive without the bad entry restores (control)', async () => {
    const file = join(incoming.dir, 'backup_control.tar.gz.enc');
    encryptRaw(rawTarGz(good), publicKey, file);
    const p = await prepareRestore({ file, privateKey, stateDir: state.dir });
    const dest = finishSafeRestore(p, state.dir);
    assert.deepEqual([...treeHash(dest).keys()], ['secrets', 'secrets/token_blacklist.json']);
  });
});
