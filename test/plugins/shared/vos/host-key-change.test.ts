import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HostKeyError } from '../../../../kernel/vault/index.ts';
import { VosShellPool } from '../../../../plugins/_shared/vos/shell-pool.ts';
import { newHostKey, startSshServer, type TestSshServer } from '../../../kernel/vault/ssh-server.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';
import { sshFingerprint } from '../../../../kernel/vault/index.ts';

describe('VOS shell pool: a changed host key', () => {
  let fx: VaultFixture;
  let first: TestSshServer;
  let second: TestSshServer;
  before(async () => {
    fx = vaultFixture();
    first = await startSshServer(newHostKey());
    second = await startSshServer(newHostKey());
  });
  after(async () => {
    await first.close();
    await second.close();
    await fx.cleanup();
  });

  it('refuses before authentication and names the pinned and the presented fingerprint', async () => {
    const pool = new VosShellPool({ retryDelaysMs: [] });
    const view = fx.vault.forClient('noc');
    const host = 'cucm-rebuilt.example';
    await view.store('cucm', 'os', host, {
      username: 'admin',
      password: 'ssh-canary-pw-93e1',
      options: { address: `127.0.0.1:${first.port}` },
    });
    await assert.rejects(pool.run(view, 'cucm', host, 'show version active'), HostKeyError);
    const pinned = sshFingerprint(first.publicBlob);
    view.hostKeys.decide('cucm', host, 'trust', pinned);

    // The node "was rebuilt": same host, another key.
    await view.update('cucm', 'os', host, {
      username: 'admin',
      password: 'ssh-canary-pw-93e1',
      options: { address: `127.0.0.1:${second.port}` },
    });
    const err = await pool.run(view, 'cucm', host, 'show version active').catch((e: unknown) => e);
    assert.ok(err instanceof HostKeyError, String(err));
    assert.equal(err.code, 'SSHError');
    assert.equal(err.reason, 'changed');
    const presented = sshFingerprint(second.publicBlob);
    assert.ok(err.message.includes(pinned) && err.message.includes(presented), err.message);
    assert.ok(
      !second.events.some((e) => e.startsWith('auth:keyboard') || e.startsWith('auth:password')),
      'no password was offered to the changed host',
    );
    await pool.closeAll();
  });
});
