// Two writers of one client's vault file, as the running server and the operator's `credentials`
// command are: each its own Vault (its own key cache and queue), the same state directory. A change
// made by one while the other derives its key must survive the other's write.
import assert from 'node:assert/strict';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { vaultFixture } from './vault-fixture.ts';

const secret = (n: number) => ({ username: `user${n}`, password: `pw-${n}-x` });

describe('credential vault: two processes writing one file', () => {
  const fx = vaultFixture();
  after(() => fx.cleanup());

  it('keeps a store made by another writer while this one derived its key', async () => {
    const server = fx.vault.forClient('noc-agent');
    await server.store('cucm', 'axl', 'cucm1', secret(1));
    // A second Vault: a fresh key cache, so its first store derives the key (about half a second).
    const operator = fx.reopen().forClient('noc-agent');
    const slow = operator.store('cucm', 'os', 'cucm1', secret(2));
    // The server's key is warm: its store lands while the operator's derivation runs.
    await server.store('cuc', 'cupi', 'cuc1', secret(3));
    await slow;
    const hosts = (await server.list()).map((e) => `${e.product}/${e.kind}/${e.host}`);
    assert.deepEqual(hosts, ['cuc/cupi/cuc1', 'cucm/axl/cucm1', 'cucm/os/cucm1']);
  });

  it('refuses a store when another writer stored the same slot meanwhile', async () => {
    const server = fx.vault.forClient('noc-agent');
    const operator = fx.reopen().forClient('noc-agent');
    const slow = operator.store('imp', 'axl', 'imp1', secret(4));
    await server.store('imp', 'axl', 'imp1', secret(5));
    await assert.rejects(slow, /already exist; use update/);
    assert.equal((await server.get('imp', 'axl', 'imp1')).username, 'user5');
  });

  it('takes over a lock file left by a crashed writer, and leaves none behind', async () => {
    const server = fx.vault.forClient('noc-agent');
    const lock = `${fx.credentialsPath('noc-agent')}.lock`;
    writeFileSync(lock, '999999\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await server.update('cucm', 'axl', 'cucm1', secret(6));
    assert.equal((await server.get('cucm', 'axl', 'cucm1')).username, 'user6');
    assert.equal(existsSync(lock), false);
  });
});
