import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { StartupError } from '../../../kernel/errors/index.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { loadOrCreateMasterSecret, masterSecretPath } from '../../../kernel/vault/master-secret.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { memoryLogger } from './vault-fixture.ts';

describe('vault master secret', () => {
  let cleanup = (): void => undefined;
  afterEach(() => cleanup());
  const fresh = () => {
    const s = tempStateDir('ucmcp-master-');
    cleanup = s.cleanup;
    return statePaths(s.dir);
  };

  it('is created once: 32 random bytes, mode 0600, then loaded unchanged', () => {
    const paths = fresh();
    const first = loadOrCreateMasterSecret(paths);
    assert.equal(first.source, 'created');
    assert.equal(first.secret.length, 32);
    const path = masterSecretPath(paths);
    assert.equal(path, join(paths.secrets, 'vault_master.key'));
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.deepEqual(readFileSync(path), first.secret);
    const second = loadOrCreateMasterSecret(paths);
    assert.equal(second.source, 'loaded');
    assert.deepEqual(second.secret, first.secret);
    assert.notDeepEqual(loadOrCreateMasterSecret(fresh()).secret, first.secret, 'random per installation');
  });

  it('is never regenerated when it is damaged: startup stops instead', () => {
    const paths = fresh();
    mkdirSync(paths.secrets, { recursive: true });
    for (const bytes of [
      Buffer.alloc(0),
      Buffer.alloc(31, 1),
      Buffer.alloc(33, 1),
      Buffer.from('not a key\n'),
    ]) {
      writeFileSync(masterSecretPath(paths), bytes);
      assert.throws(() => loadOrCreateMasterSecret(paths), StartupError);
      assert.deepEqual(readFileSync(masterSecretPath(paths)), bytes, 'left as it was');
    }
  });

  it('is not created afresh while clients have sealed credentials', () => {
    const paths = fresh();
    const dir = join(paths.clients, 'noc', 'vault');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'credentials.json'), '{}');
    assert.throws(
      () => loadOrCreateMasterSecret(paths),
      (err: unknown) => {
        assert.ok(err instanceof StartupError);
        assert.match(err.message, /missing but 1 client\(s\) have vault files \(noc\)/);
        return true;
      },
    );
  });

  it('has a widened mode tightened back to 0600, with a warning', () => {
    const paths = fresh();
    loadOrCreateMasterSecret(paths);
    chmodSync(masterSecretPath(paths), 0o644);
    const log = memoryLogger();
    loadOrCreateMasterSecret(paths, log);
    assert.equal(statSync(masterSecretPath(paths)).mode & 0o777, 0o600);
    assert.equal(log.lines.length, 1);
    assert.match(log.lines[0] ?? '', /mode set to 0600/);
  });
});
