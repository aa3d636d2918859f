import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import {
  authRecords,
  basicAuth,
  clientFiles,
  codeFlow,
  getStatus,
  postForm,
} from '../../../helpers/oauth.ts';

const REDIRECT = 'http://127.0.0.1/callback';

describe('POST /token', () => {
  let k: TestKernel;
  let secret: string;
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: `noc-agent:operator:cucm+imp:${REDIRECT},auditor1:auditor:cucm`,
        AUTH_BCRYPT_COST: '4',
        AUTH_BLACKLIST_THRESHOLD: '1000',
        HTTP_MAX_BODY_BYTES: '2048',
      },
    });
    secret = clientFiles(k.stateDir, 'noc-agent').secret;
  });
  after(async () => {
    await k.stop();
  });

  async function expectOAuthError(res: Awaited<ReturnType<typeof postForm>>, status: number, error: string) {
    assert.equal(res.status, status);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('pragma'), 'no-cache');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.error, error);
    assert.equal(typeof body.error_description, 'string');
  }

  for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
    it(`issues an RFC 9068 access token for client_credentials with ${method}`, async () => {
      const res =
        method === 'client_secret_basic'
          ? await postForm(
              k,
              '/token',
              { grant_type: 'client_credentials' },
              { authorization: basicAuth('noc-agent', secret) },
            )
          : await postForm(k, '/token', {
              grant_type: 'client_credentials',
              client_id: 'noc-agent',
              client_secret: secret,
            });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('pragma'), 'no-cache');
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.expires_in, 3600);
      assert.equal(body.scope, 'mcp');
      assert.equal(body.refresh_token, undefined, 'no refresh token for client_credentials');
      const token = String(body.access_token);
      const header = decodeProtectedHeader(token);
      assert.deepEqual(header, { alg: 'RS256', typ: 'at+jwt', kid: k.kernel.runtime.keys.kid });
      const claims = decodeJwt(token);
      assert.equal(claims.iss, k.url);
      assert.equal(claims.aud, `${k.url}/mcp`);
      assert.equal(claims.sub, 'noc-agent');
      assert.equal(claims.client_id, 'noc-agent');
      assert.match(String(claims.jti), /^[0-9a-f-]{36}$/);
      assert.equal((claims.exp ?? 0) - (claims.iat ?? 0), 3600);
      assert.equal((await getStatus(k, token)).status, 200);
      const rec = authRecords(k, 'TOKEN_ISSUED').at(-1);
      assert.equal(rec?.client, 'noc-agent');
      assert.equal(rec?.grant_type, 'client_credentials');
      assert.equal(rec?.auth_method, method);
      assert.equal(rec?.jti, claims.jti);
    });
  }

  it('accepts the resource indicator of the MCP endpoint, and refuses another (RFC 8707)', async () => {
    const auth = { authorization: basicAuth('noc-agent', secret) };
    const ok = await postForm(
      k,
      '/token',
      { grant_type: 'client_credentials', resource: `${k.url}/mcp` },
      auth,
    );
    assert.equal(ok.status, 200);
    const bad = await postForm(
      k,
      '/token',
      { grant_type: 'client_credentials', resource: 'https://other.example/mcp' },
      auth,
    );
    await expectOAuthError(bad, 400, 'invalid_target');
  });

  it('rotates refresh tokens: the old one is refused after use, and replaying it ends the family', async () => {
    const first = await codeFlow(k, { name: 'noc-agent', secret, redirectUri: REDIRECT });
    const auth = { authorization: basicAuth('noc-agent', secret) };
    const r1 = await postForm(
      k,
      '/token',
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      auth,
    );
    assert.equal(r1.status, 200);
    const second = (await r1.json()) as { access_token: string; refresh_token: string };
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal((await getStatus(k, second.access_token)).status, 200);

    const replay = await postForm(
      k,
      '/token',
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      auth,
    );
    await expectOAuthError(replay, 400, 'invalid_grant');
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'refresh_reused');
    // Theft is assumed: the newer tokens of the family die too.
    const after = await postForm(
      k,
      '/token',
      { grant_type: 'refresh_token', refresh_token: second.refresh_token },
      auth,
    );
    await expectOAuthError(after, 400, 'invalid_grant');
    const status = await getStatus(k, second.access_token);
    assert.equal(status.status, 401);
    assert.equal(status.body.error, 'AUTH_REVOKED');
    assert.equal(authRecords(k, 'TOKEN_REVOKED').at(-1)?.reason, 'refresh_token_reused');
  });

  it('refuses a refresh token presented by another client', async () => {
    const tokens = await codeFlow(k, { name: 'noc-agent', secret, redirectUri: REDIRECT });
    const other = clientFiles(k.stateDir, 'auditor1').secret;
    const res = await postForm(
      k,
      '/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { authorization: basicAuth('auditor1', other) },
    );
    await expectOAuthError(res, 400, 'invalid_grant');
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'refresh_wrong_client');
  });

  it('refuses bad client credentials with invalid_client (401), audited without revealing the secret', async () => {
    const res = await postForm(
      k,
      '/token',
      { grant_type: 'client_credentials' },
      { authorization: basicAuth('noc-agent', 'wrong') },
    );
    assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    await expectOAuthError(res, 401, 'invalid_client');
    const rec = authRecords(k, 'AUTH_FAILED').at(-1);
    assert.equal(rec?.reason, 'bad_client_secret');
    assert.equal(rec?.client_id, 'noc-agent');
    assert.equal(rec?.client, undefined);

    await expectOAuthError(
      await postForm(k, '/token', {
        grant_type: 'client_credentials',
        client_id: 'nobody',
        client_secret: 'x',
      }),
      401,
      'invalid_client',
    );
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'unknown_client');
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.client_id, undefined, 'an unknown name is not echoed');
    await expectOAuthError(
      await postForm(k, '/token', { grant_type: 'client_credentials' }),
      401,
      'invalid_client',
    );
  });

  it('refuses two authentication methods at once, unknown grants, and scopes it does not have', async () => {
    const auth = { authorization: basicAuth('noc-agent', secret) };
    await expectOAuthError(
      await postForm(k, '/token', { grant_type: 'client_credentials', client_secret: secret }, auth),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await postForm(k, '/token', { grant_type: 'password' }, auth),
      400,
      'unsupported_grant_type',
    );
    await expectOAuthError(await postForm(k, '/token', {}, auth), 400, 'invalid_request');
    await expectOAuthError(
      await postForm(k, '/token', { grant_type: 'client_credentials', scope: 'mcp admin' }, auth),
      400,
      'invalid_scope',
    );
  });

  it('takes only size-capped form bodies without repeated parameters', async () => {
    const auth = { authorization: basicAuth('noc-agent', secret) };
    const json = await k.fetch(`${k.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    await expectOAuthError(json, 415, 'invalid_request');
    const big = await postForm(
      k,
      '/token',
      { grant_type: 'client_credentials', pad: 'x'.repeat(4096) },
      auth,
    );
    await expectOAuthError(big, 413, 'invalid_request');
    // Without Content-Length (chunked), the cap is enforced while reading, and the 413 still arrives.
    const chunked = await k.fetch(`${k.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode('grant_type=client_credentials&pad='));
          for (let i = 0; i < 8; i++) c.enqueue(new TextEncoder().encode('x'.repeat(1024)));
          c.close();
        },
      }),
      duplex: 'half',
    });
    await expectOAuthError(chunked, 413, 'invalid_request');
    const repeated = await k.fetch(`${k.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      body: 'grant_type=client_credentials&grant_type=client_credentials',
    });
    await expectOAuthError(repeated, 400, 'invalid_request');
  });

  it('keeps secrets, codes and refresh tokens out of the audit log', async () => {
    const tokens = await codeFlow(k, { name: 'noc-agent', secret, redirectUri: REDIRECT });
    const text = JSON.stringify(k.auditRecords());
    for (const value of [secret, tokens.refresh_token, tokens.access_token]) assert.ok(!text.includes(value));
    assert.ok(!text.includes(tokens.access_token.split('.')[2] as string), 'not even the signature');
  });
});
