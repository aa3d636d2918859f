import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SignJWT, calculateJwkThumbprint, exportJWK, type JWTPayload } from 'jose';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import { authRecords, basicAuth, bearer, clientFiles, postForm } from '../../helpers/oauth.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('bearer authentication refuses forged, damaged and dead tokens', () => {
  let k: TestKernel;
  let kid: string;
  let claims: () => JWTPayload;
  const serverKey = () => createPrivateKey(readFileSync(join(k.stateDir, 'secrets/rsa_private.pem')));
  const sign = (payload: JWTPayload, header: Record<string, unknown> = {}, key = serverKey()) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid, ...header }).sign(key);

  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm,auditor1:auditor:cucm',
        AUTH_BCRYPT_COST: '4',
        AUTH_BLACKLIST_THRESHOLD: '1000',
      },
    });
    kid = k.kernel.runtime.keys.kid;
    claims = () => {
      const now = Math.floor(Date.now() / 1000);
      return {
        iss: k.url,
        aud: `${k.url}/mcp`,
        sub: 'noc-agent',
        client_id: 'noc-agent',
        jti: randomUUID(),
        iat: now,
        exp: now + 600,
        scope: 'mcp',
      };
    };
  });
  after(async () => {
    await k.stop();
  });

  it('accepts a well-formed token signed by the server key (the control case)', async () => {
    const res = await k.fetch(`${k.url}/status`, { headers: bearer(await sign(claims())) });
    assert.equal(res.status, 200);
  });

  const cases: [string, () => Promise<string | null>, string, string][] = [
    [
      'alg: none',
      async () => `${b64({ alg: 'none', typ: 'at+jwt', kid })}.${b64(claims())}.`,
      'AUTH_FAILED',
      'alg_not_allowed',
    ],
    [
      'HS256 signed with the public key as HMAC secret',
      async () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid })
          .sign(new Uint8Array(readFileSync(join(k.stateDir, 'secrets/rsa_public.pem')))),
      'AUTH_FAILED',
      'alg_not_allowed',
    ],
    [
      'an unknown kid (another key)',
      async () => {
        const other = createPrivateKey(cachedRsaKeyPair('second').privatePem);
        const otherKid = await calculateJwkThumbprint(await exportJWK(createPublicKey(other)));
        return sign(claims(), { kid: otherKid }, other);
      },
      'AUTH_FAILED',
      'unknown_kid',
    ],
    [
      'another key claiming the server kid',
      async () => sign(claims(), {}, createPrivateKey(cachedRsaKeyPair('second').privatePem)),
      'AUTH_FAILED',
      'bad_signature',
    ],
    [
      'a wrong iss',
      async () => sign({ ...claims(), iss: 'https://evil.example' }),
      'AUTH_FAILED',
      'wrong_issuer',
    ],
    [
      'a wrong aud',
      async () => sign({ ...claims(), aud: `${k.url}/other` }),
      'AUTH_FAILED',
      'wrong_audience',
    ],
    [
      'the issuer as aud (no /mcp)',
      async () => sign({ ...claims(), aud: k.url }),
      'AUTH_FAILED',
      'wrong_audience',
    ],
    [
      'a tampered payload',
      async () => {
        const [h, , s] = clientFiles(k.stateDir, 'auditor1').token.split('.');
        return `${h}.${b64({ ...claims(), sub: 'auditor1', client_id: 'auditor1', scope: 'admin' })}.${s}`;
      },
      'AUTH_FAILED',
      'bad_signature',
    ],
    ['no typ header', async () => sign(claims(), { typ: undefined }), 'AUTH_FAILED', 'wrong_type'],
    ['an id-token typ', async () => sign(claims(), { typ: 'JWT' }), 'AUTH_FAILED', 'wrong_type'],
    [
      'no jti',
      async () => {
        const { jti: _jti, ...rest } = claims();
        return sign(rest);
      },
      'AUTH_FAILED',
      'missing_claim',
    ],
    [
      'a client that is not configured',
      async () => sign({ ...claims(), sub: 'ghost', client_id: 'ghost' }),
      'AUTH_FAILED',
      'unknown_client',
    ],
    [
      'sub and client_id disagreeing',
      async () => sign({ ...claims(), client_id: 'auditor1' }),
      'AUTH_FAILED',
      'invalid_claims',
    ],
    [
      'an expired token',
      async () => {
        const now = Math.floor(Date.now() / 1000);
        return sign({ ...claims(), iat: now - 3700, exp: now - 100 });
      },
      'AUTH_EXPIRED',
      'expired',
    ],
    ['garbage', async () => 'not-a-jwt', 'AUTH_FAILED', 'malformed'],
    ['three parts of garbage', async () => 'aaa.bbb.ccc', 'AUTH_FAILED', 'malformed'],
    ['characters outside b64token', async () => 'a"b.c<d.e', 'AUTH_FAILED', 'malformed'],
    ['an empty token', async () => '', 'AUTH_FAILED', 'empty'],
    [
      'an oversized token',
      async () => `${'a'.repeat(6000)}.${'b'.repeat(3000)}.c`,
      'AUTH_FAILED',
      'oversized',
    ],
  ];

  for (const [what, make, code, reason] of cases) {
    it(`refuses ${what}: ${code} (${reason}), audited, counted`, async () => {
      const token = await make();
      const before = authRecords(k).length;
      const failuresBefore = await failureCount(k);
      const res = await k.fetch(`${k.url}/status`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 401);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.error, code);
      assert.match(String(body.request_id), /^[0-9a-f-]{36}$/);
      const challenge = res.headers.get('www-authenticate') ?? '';
      assert.match(
        challenge,
        /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/,
      );
      assert.ok(challenge.includes(`resource_metadata="${k.url}/.well-known/oauth-protected-resource/mcp"`));
      const records = authRecords(k).slice(before);
      assert.equal(records.length, 1, 'exactly one AUTH record');
      assert.equal(records[0]?.status, code);
      assert.equal(records[0]?.reason, reason);
      assert.equal(records[0]?.ip, '127.0.0.1');
      assert.equal(await failureCount(k), failuresBefore + 1, 'ucmcp_auth_failures_total counts it');
    });
  }

  it('names the client of an expired token (its signature was valid), and of none that was forged', () => {
    const expired = authRecords(k, 'AUTH_EXPIRED').at(-1);
    assert.equal(expired?.client, 'noc-agent');
    for (const r of authRecords(k, 'AUTH_FAILED')) assert.equal(r.client, undefined, JSON.stringify(r));
    // A validly signed token of a client no longer configured names it, but not as the caller.
    assert.equal(authRecords(k, 'AUTH_FAILED').find((r) => r.reason === 'unknown_client')?.subject, 'ghost');
  });

  it('refuses a revoked token with AUTH_REVOKED', async () => {
    const { secret } = clientFiles(k.stateDir, 'noc-agent');
    const issued = await postForm(
      k,
      '/token',
      { grant_type: 'client_credentials' },
      { authorization: basicAuth('noc-agent', secret) },
    );
    const { access_token: token } = (await issued.json()) as { access_token: string };
    assert.equal((await postForm(k, '/revoke', { token }, bearer(token))).status, 200);
    const res = await k.fetch(`${k.url}/status`, { headers: bearer(token) });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: string }).error, 'AUTH_REVOKED');
    assert.match(
      res.headers.get('www-authenticate') ?? '',
      /error_description="the access token has been revoked"/,
    );
    const rec = authRecords(k, 'AUTH_REVOKED').at(-1);
    assert.equal(rec?.client, 'noc-agent');
  });

  it('answers a request without credentials with a bare challenge (RFC 6750 3.1), audited', async () => {
    const res = await k.fetch(`${k.url}/status`);
    assert.equal(res.status, 401);
    assert.equal(
      res.headers.get('www-authenticate'),
      `Bearer resource_metadata="${k.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'missing_token');
  });

  it('refuses other schemes', async () => {
    const res = await k.fetch(`${k.url}/status`, { headers: { authorization: 'Basic YTpi' } });
    assert.equal(res.status, 401);
    assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'not_bearer');
  });

  it('counts failures per client in the metrics and writes no token into the audit log', async () => {
    const text = await (await k.fetch(`${k.url}/metrics`)).text();
    assert.match(text, /ucmcp_auth_failures_by_client_total\{client="noc-agent",status="AUTH_EXPIRED"\} 1/);
    assert.match(text, /ucmcp_auth_failures_by_client_total\{client="unknown",status="AUTH_FAILED"\} \d+/);
    const audit = readFileSync(join(k.stateDir, 'logs/audit.log'), 'utf8');
    assert.ok(!audit.includes(clientFiles(k.stateDir, 'noc-agent').token.split('.')[2] as string));
    assert.ok(!/eyJ[A-Za-z0-9_-]{10,}\.eyJ/.test(audit), 'no JWT in the audit log');
  });
});

async function failureCount(k: TestKernel): Promise<number> {
  const text = await (await k.fetch(`${k.url}/metrics`)).text();
  return Number(/^ucmcp_auth_failures_total (\d+)/m.exec(text)?.[1] ?? '0');
}
