import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import { digestOf } from '../../../kernel/auth/verified-token-cache.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import { authRecords, basicAuth, bearer, clientFiles, getStatus, postForm } from '../../helpers/oauth.ts';

// Real HTTPS requests: a token verified once is served from the cache, yet revocation, a key change and
// expiry still refuse it on its very next use.
describe('verified-token cache over HTTPS', () => {
  let k: TestKernel;
  /** When set, the kernel's clock stands still at this instant (ms). */
  let frozen: number | undefined;

  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm',
        AUTH_BCRYPT_COST: '4',
        AUTH_ACCESS_TOKEN_TTL_SECONDS: '60',
      },
      clock: () => frozen ?? Date.now(),
    });
  });
  after(() => k.stop());

  const cache = () => k.kernel.runtime.auth.tokens.verified;

  async function accessToken(): Promise<string> {
    const res = await postForm(
      k,
      '/token',
      { grant_type: 'client_credentials' },
      { authorization: basicAuth('noc-agent', clientFiles(k.stateDir, 'noc-agent').secret) },
    );
    assert.equal(res.status, 200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  it('holds a used token by its digest only', async () => {
    const token = await accessToken();
    assert.equal((await getStatus(k, token)).status, 200);
    const held = cache().digests();
    assert.ok(held.includes(digestOf(token)));
    for (const key of held) {
      assert.notEqual(key, token);
      for (const part of token.split('.')) assert.ok(!key.includes(part));
    }
  });

  it('refuses a token revoked while cached on its next use: 401 AUTH_REVOKED, audited', async () => {
    const token = await accessToken();
    assert.equal((await getStatus(k, token)).status, 200);
    assert.equal((await getStatus(k, token)).status, 200);
    assert.ok(cache().digests().includes(digestOf(token)), 'cached before the revocation');

    // Revoked out of band (what a purge or an operator command does), not through a request using it.
    const { jti, exp } = decodeJwt(token) as { jti: string; exp: number };
    await k.kernel.runtime.auth.revocations.revoke([{ jti, exp }]);
    const res = await k.fetch(`${k.url}/status`, { headers: bearer(token) });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: string }).error, 'AUTH_REVOKED');
    assert.match(res.headers.get('www-authenticate') ?? '', /the access token has been revoked/);
    const rec = authRecords(k, 'AUTH_REVOKED').at(-1);
    assert.equal(rec?.client, 'noc-agent');
    assert.equal(rec?.reason, 'revoked');

    // Revoked through POST /revoke by the token itself: refused on the next request too.
    const other = await accessToken();
    assert.equal((await getStatus(k, other)).status, 200);
    assert.equal((await postForm(k, '/revoke', { token: other }, bearer(other))).status, 200);
    assert.equal((await getStatus(k, other)).status, 401);
  });

  it('refuses a token cached before the server key changed, and accepts tokens of the new key', async () => {
    const token = await accessToken();
    assert.equal((await getStatus(k, token)).status, 200);
    assert.ok(cache().size > 0);

    const keys = k.kernel.runtime.keys;
    const saved = { ...keys };
    const privateKey = createPrivateKey(cachedRsaKeyPair('second').privatePem);
    const publicKey = createPublicKey(privateKey);
    const kid = await calculateJwkThumbprint(await exportJWK(publicKey), 'sha256');
    Object.assign(keys, { privateKey, publicKey, kid });
    try {
      const res = await getStatus(k, token);
      assert.equal(res.status, 401);
      assert.equal(res.body.error, 'AUTH_FAILED');
      assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'unknown_kid');
      assert.ok(!cache().digests().includes(digestOf(token)));
      const fresh = await accessToken();
      assert.equal((await getStatus(k, fresh)).status, 200);
    } finally {
      Object.assign(keys, saved);
    }
  });

  it('stops serving a cached token at exp; refused when verification refuses it (exp + clock tolerance)', async () => {
    const token = await accessToken();
    const { exp } = decodeJwt(token) as { exp: number };
    assert.equal((await getStatus(k, token)).status, 200);
    frozen = exp * 1000 - 1;
    assert.equal((await getStatus(k, token)).status, 200);
    assert.ok(cache().digests().includes(digestOf(token)));
    frozen = exp * 1000;
    assert.equal((await getStatus(k, token)).status, 200, 'within the 30 s tolerance, as before');
    assert.ok(!cache().digests().includes(digestOf(token)), 'no longer served from the cache');
    frozen = (exp + 30) * 1000;
    const res = await getStatus(k, token);
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'AUTH_EXPIRED');
    assert.equal(authRecords(k, 'AUTH_EXPIRED').at(-1)?.client, 'noc-agent');
    frozen = undefined;
  });
});
