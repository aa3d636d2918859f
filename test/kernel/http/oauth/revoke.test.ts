import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import {
  authRecords,
  basicAuth,
  bearer,
  clientFiles,
  codeFlow,
  freePort,
  getStatus,
  postForm,
} from '../../../helpers/oauth.ts';
import { tempStateDir } from '../../../helpers/state-dir.ts';

const REDIRECT = 'http://127.0.0.1/callback';

describe('POST /revoke (RFC 7009)', () => {
  const state = tempStateDir();
  let env: Record<string, string>;
  let k: TestKernel;
  const start = () => startTestKernel({ stateDir: state.dir, seedKeys: k === undefined, env });
  const cc = async (name: string) => {
    const res = await postForm(
      k,
      '/token',
      { grant_type: 'client_credentials' },
      {
        authorization: basicAuth(name, clientFiles(state.dir, name).secret),
      },
    );
    return ((await res.json()) as { access_token: string }).access_token;
  };
  before(async () => {
    env = {
      SERVER_PORT: String(await freePort()),
      AUTH_CLIENTS: `noc-agent:operator:cucm:${REDIRECT},auditor1:auditor:cucm`,
      AUTH_BCRYPT_COST: '4',
    };
    k = await start();
  });
  after(async () => {
    await k.stop();
    state.cleanup();
  });

  it('revokes an access token; later use is AUTH_REVOKED, also after a restart', async () => {
    const token = await cc('noc-agent');
    const res = await postForm(k, '/revoke', { token, token_type_hint: 'access_token' }, bearer(token));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const { jti, exp } = decodeJwt(token);
    const list = JSON.parse(readFileSync(join(state.dir, 'secrets/token_blacklist.json'), 'utf8')) as Record<
      string,
      number
    >;
    assert.equal(list[String(jti)], exp);
    const rec = authRecords(k, 'TOKEN_REVOKED').at(-1);
    assert.equal(rec?.client, 'noc-agent');
    assert.deepEqual(rec?.jti, [jti]);
    assert.equal(rec?.reason, 'revocation_request');

    const after = await getStatus(k, token);
    assert.equal(after.status, 401);
    assert.equal(after.body.error, 'AUTH_REVOKED');

    await k.stop();
    k = await start();
    assert.equal((await getStatus(k, token)).body.error, 'AUTH_REVOKED', 'the revocation survives a restart');
  });

  it("answers 200 but revokes nothing for another client's token, audited", async () => {
    const mine = await cc('noc-agent');
    const theirs = await cc('auditor1');
    const res = await postForm(k, '/revoke', { token: theirs }, bearer(mine));
    assert.equal(res.status, 200);
    assert.equal((await getStatus(k, theirs)).status, 200, 'still valid');
    const rec = authRecords(k, 'TOKEN_REVOKE_REFUSED').at(-1);
    assert.equal(rec?.client, 'noc-agent');
    assert.equal(rec?.reason, 'foreign_token');
  });

  it('answers 200 for garbage and for unknown tokens (RFC 7009 2.2)', async () => {
    const mine = await cc('noc-agent');
    for (const token of ['garbage', 'a.b.c', 'x'.repeat(43)]) {
      const res = await postForm(k, '/revoke', { token }, bearer(mine));
      assert.equal(res.status, 200);
    }
    assert.equal(authRecords(k, 'TOKEN_REVOKE_REFUSED').at(-1)?.reason, 'unknown_token');
    const missing = await postForm(k, '/revoke', {}, bearer(mine));
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as { error: string }).error, 'invalid_request');
  });

  it('revokes a refresh token with its family and the access tokens issued with it', async () => {
    const secret = clientFiles(state.dir, 'noc-agent').secret;
    const tokens = await codeFlow(k, { name: 'noc-agent', secret, redirectUri: REDIRECT });
    const res = await postForm(
      k,
      '/revoke',
      { token: tokens.refresh_token, token_type_hint: 'refresh_token' },
      bearer(tokens.access_token),
    );
    assert.equal(res.status, 200);
    assert.equal((await getStatus(k, tokens.access_token)).body.error, 'AUTH_REVOKED');
    const refresh = await postForm(
      k,
      '/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { authorization: basicAuth('noc-agent', secret) },
    );
    assert.equal(refresh.status, 400);
    assert.equal(authRecords(k, 'TOKEN_REVOKED').at(-1)?.kind, 'refresh');
  });

  it('requires a valid bearer token', async () => {
    const res = await postForm(k, '/revoke', { token: 'x' });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: string }).error, 'AUTH_FAILED');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
  });
});
