// Strict-Transport-Security on every answer: each route, each kind of error, what the MCP transport
// writes itself, and what the kernel answers on the raw socket when Node's parser refuses a request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { rawHttpsRequest } from '../../helpers/https-client.ts';
import { startupToken } from '../../helpers/mcp-client.ts';
import { authorizeUrl, basicAuth, bearer, clientFiles, postForm } from '../../helpers/oauth.ts';
import { INITIALIZE, MCP_HEADERS } from '../../reliability/fuzz/support/http-session.ts';
import { rawExchange } from '../../reliability/fuzz/support/raw-https.ts';

const ONE_YEAR = 31_536_000;

function assertHsts(what: string, value: string | null | undefined): void {
  const maxAge = /(?:^|;)\s*max-age=(\d+)\s*(?:;|$)/i.exec(value ?? '')?.[1];
  assert.ok(
    maxAge !== undefined && Number(maxAge) >= ONE_YEAR,
    `${what}: Strict-Transport-Security ${value}`,
  );
}

describe('HSTS on every answer', () => {
  let k: TestKernel;
  let token: string;
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm:http://127.0.0.1/callback',
        AUTH_BCRYPT_COST: '4',
        AUTH_BLACKLIST_THRESHOLD: '1',
        TRUSTED_PROXIES: '127.0.0.1',
        HTTP_REQUEST_TIMEOUT_MS: '1000',
        HTTP_MAX_HEADER_BYTES: '8192',
      },
      installers: [
        (router) =>
          router.get('/test-boom', () => {
            throw new Error('unexpected');
          }),
      ],
    });
    token = startupToken(k.stateDir, 'noc-agent');
  });
  after(async () => {
    await k.stop();
  });

  it('routes and their errors, through fetch', async () => {
    const secret = clientFiles(k.stateDir, 'noc-agent').secret;
    const get = (path: string, headers: Record<string, string> = {}) =>
      k.fetch(`${k.url}${path}`, { headers, redirect: 'manual' });
    const cases: [string, Promise<Response>, number][] = [
      ['health', get('/health'), 200],
      ['metrics', get('/metrics'), 200],
      ['status', get('/status', bearer(token)), 200],
      ['status without a token', get('/status'), 401],
      ['metadata', get('/.well-known/oauth-authorization-server'), 200],
      ['resource metadata', get('/.well-known/oauth-protected-resource/mcp'), 200],
      [
        'login page',
        get(
          authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: 'http://127.0.0.1/callback' }).url.slice(
            k.url.length,
          ),
        ),
        200,
      ],
      ['authorize error page', get('/authorize?client_id=ghost'), 400],
      [
        'token issued',
        postForm(
          k,
          '/token',
          { grant_type: 'client_credentials' },
          { authorization: basicAuth('noc-agent', secret) },
        ),
        200,
      ],
      ['token refused', postForm(k, '/token', { grant_type: 'client_credentials' }), 401],
      ['revoke', postForm(k, '/revoke', { token: 'x' }, bearer(token)), 200],
      ['not found', get('/nothing-here'), 404],
      ['method not allowed', k.fetch(`${k.url}/status`, { method: 'PUT' }), 405],
      ['internal error', get('/test-boom'), 500],
      [
        'MCP initialize (the transport writes its own head)',
        k.fetch(`${k.url}/mcp`, {
          method: 'POST',
          headers: { ...MCP_HEADERS, ...bearer(token) },
          body: JSON.stringify(INITIALIZE),
        }),
        200,
      ],
      [
        'MCP unknown session',
        k.fetch(`${k.url}/mcp`, {
          method: 'POST',
          headers: { ...MCP_HEADERS, ...bearer(token), 'mcp-session-id': 'nope' },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        }),
        404,
      ],
      [
        'MCP parse error (the transport)',
        k.fetch(`${k.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...bearer(token) }, body: '{' }),
        400,
      ],
    ];
    for (const [what, pending, status] of cases) {
      const res = await pending;
      await res.arrayBuffer();
      assert.equal(res.status, status, what);
      assertHsts(what, res.headers.get('strict-transport-security'));
    }
  });

  it('the Host guard and the blacklist', async () => {
    const host = await rawHttpsRequest(`${k.url}/status`, {
      caPem: k.certPem,
      headers: { host: 'evil.example' },
    });
    assert.equal(host.status, 403);
    assertHsts('Host guard', host.headers['strict-transport-security'] as string);
    // Listed through X-Forwarded-For (the peer is a trusted proxy): nothing leaves loopback.
    const listed = { 'x-forwarded-for': '203.0.113.9' };
    await k.fetch(`${k.url}/status`, { headers: { ...listed, authorization: 'Bearer bad' } });
    const blocked = await k.fetch(`${k.url}/status`, { headers: { ...listed, ...bearer(token) } });
    assert.equal(blocked.status, 429);
    assertHsts('AUTH_BLOCKED', blocked.headers.get('strict-transport-security'));
  });

  it('what the kernel answers on the raw socket', async () => {
    const send = (bytes: string, timeoutMs = 10_000) =>
      rawExchange({ port: k.kernel.port, caPem: k.certPem, bytes: Buffer.from(bytes, 'latin1'), timeoutMs });
    const body = 'x'.repeat(1_100_000);
    const cases: [string, string, number][] = [
      [
        'header overflow',
        `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
      ],
      ['malformed request line', 'GET /health HTTP/9.9 trailing\r\nHost: 127.0.0.1\r\n\r\n', 400],
      ['control byte in a header', 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x01b\r\n\r\n', 400],
      [
        'body shorter than its Content-Length',
        'POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=',
        408,
      ],
      [
        'body too large',
        `POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        413,
      ],
      ['CONNECT', 'CONNECT example.invalid:443 HTTP/1.1\r\nHost: example.invalid:443\r\n\r\n', 405],
      [
        'an Expect Node does not know',
        'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: teapot\r\n\r\n',
        417,
      ],
    ];
    for (const [what, bytes, status] of cases) {
      const a = await send(bytes);
      assert.equal(a.status, status, `${what}: ${a.raw.toString('latin1').slice(0, 200)}`);
      assertHsts(what, a.headers['strict-transport-security']);
      assert.ok(JSON.parse(a.body.toString('utf8')).error, what);
    }
  });
});
