// Regression: a client removed from AUTH_CLIENTS has its tokens revoked and its directory deleted. The
// directory used to be deleted file by file in place, so a crash midway left half a client: say its
// vault file without its registration. If the operator then configured the client again (the change
// rolled back), the next start created it anew, with a new secret, and it inherited its predecessor's
// stored credentials. Now the directory is renamed aside in one step first. The server is killed while
// the files of the removed client are being deleted; configured again, the client must come back whole
// (old secret, old credential) or new (new secret, nothing of the old one).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { statePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';
import { basicAuth } from '../../helpers/oauth.ts';
import { freePort, serverFetch, spawnServer } from '../../helpers/server-process.ts';
import { crashDuringStart, spawnArmed } from './crash-points.ts';
import { crashStateDir } from './harness.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('crash while a removed client is purged', () => {
  const state = crashStateDir('ucmcp-crash-purge-');
  after(() => state.cleanup());

  it('the client configured again is whole or new, never half of each', async () => {
    const port = await freePort();
    const both = { stateDir: state.dir, port, env: { AUTH_CLIENTS: 'a:operator:cucm,b:operator:cucm' } };
    const first = spawnServer(both);
    await first.ready;
    assert.equal(await first.stop(), 0);
    const secret = readFileSync(join(state.dir, 'clients/a/secrets/.client_secret'), 'utf8').trim();
    const vault = Vault.open(statePaths(state.dir), { write: () => undefined }, silent);
    await vault
      .forClient('a')
      .store('cucm', 'axl', 'n1.purge.example', { username: 'axl', password: 'old-pw' });

    // a removed: killed just before the second of its registration and vault files is deleted.
    const armed = spawnArmed(
      { ...both, env: { AUTH_CLIENTS: 'b:operator:cucm' } },
      { at: 2, match: '/clients/[^/]*a[^/]*/(vault/credentials\\.json|secrets/registration\\.json)$' },
    );
    assert.equal(await crashDuringStart(armed), true, 'the start died while deleting the client');

    const again = spawnServer(both);
    await again.ready;
    const fetch = serverFetch(state.dir);
    try {
      const res = await fetch(`https://127.0.0.1:${port}/token`, {
        method: 'POST',
        headers: {
          authorization: basicAuth('a', secret),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      await res.arrayBuffer();
      const oldSecretWorks = res.status === 200;
      const stored = await vault
        .forClient('a')
        .get('cucm', 'axl', 'n1.purge.example')
        .then(
          (s) => s.password,
          () => null,
        );
      if (oldSecretWorks) assert.equal(stored, 'old-pw', 'kept whole: its credential is there');
      else assert.equal(stored, null, 're-created: nothing of its predecessor');
      const dirs = readdirSync(join(state.dir, 'clients')).sort();
      assert.deepEqual(dirs, ['a', 'b'], 'nothing left of the interrupted removal');
      assert.ok(existsSync(join(state.dir, 'clients/a/secrets/registration.json')));
    } finally {
      await fetch.close();
      await again.stop();
    }
  });
});
