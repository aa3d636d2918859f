// Regression: revoking a refresh token ends its family and revokes the access tokens issued with it.
// The family used to be deleted first and the access tokens put on the revocation list after, so a
// crash in between lost the revocation for good: the client's retry found no such refresh token (200,
// nothing revoked) and the access token stayed valid. Now the family is spent, its access tokens
// revoked, and only then is it deleted. The server is killed just before the revocation-list write of
// POST /revoke; after the restart the client sends the revocation again, and the access token must be
// refused.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { TestKernel } from '../../helpers/kernel.ts';
import { basicAuth, bearer, codeFlow, postForm } from '../../helpers/oauth.ts';
import { freePort, serverFetch, spawnServer } from '../../helpers/server-process.ts';
import { startupToken } from '../../helpers/mcp-client.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnArmed } from './crash-points.ts';
import { crashStateDir } from './harness.ts';
import { statusOf } from './startup-tokens.ts';

const REDIRECT = 'http://127.0.0.1/cb';

describe('crash while a refresh token is revoked', () => {
  const state = crashStateDir('ucmcp-crash-refresh-');
  after(() => state.cleanup());

  it('the retried revocation still revokes the access token of the family', async () => {
    const port = await freePort();
    const o = { stateDir: state.dir, port, env: { AUTH_CLIENTS: `a:operator:cucm:${REDIRECT}` } };
    // A first start has no earlier startup token to revoke: the first revocation-list write is /revoke's.
    const armed = spawnArmed(o, { at: 1, match: '/secrets/token_blacklist\\.json$' });
    await armed.ready;
    const secret = readFileSync(join(state.dir, 'clients/a/secrets/.client_secret'), 'utf8').trim();
    let fetch = serverFetch(state.dir);
    let k = { url: `https://127.0.0.1:${port}`, fetch } as unknown as TestKernel;
    const pair = await codeFlow(k, { name: 'a', secret, redirectUri: REDIRECT });
    assert.equal(await statusOf(k, pair.access_token), 'OK');
    await assert.rejects(
      postForm(k, '/revoke', { token: pair.refresh_token }, bearer(startupToken(state.dir, 'a'))),
      'the server died during the revocation',
    );
    assert.equal((await armed.exited).signal, 'SIGKILL');
    await fetch.close();

    const again = spawnServer(o);
    await again.ready;
    fetch = serverFetch(state.dir);
    k = { url: k.url, fetch } as unknown as TestKernel;
    try {
      const res = await postForm(
        k,
        '/revoke',
        { token: pair.refresh_token },
        bearer(startupToken(state.dir, 'a')),
      );
      assert.equal(res.status, 200);
      assert.equal(await statusOf(k, pair.access_token), 'AUTH_REVOKED');
      const refresh = await postForm(
        k,
        '/token',
        { grant_type: 'refresh_token', refresh_token: pair.refresh_token },
        { authorization: basicAuth('a', secret) },
      );
      assert.equal(refresh.status, 400, 'the refresh token no longer redeems');
    } finally {
      await fetch.close();
      await again.stop();
    }
  });
});
