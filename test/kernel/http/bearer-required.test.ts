// A request to a protected endpoint with no Authorization header was told "the access token is
// invalid", as if it had sent a bad one. It is now told what is missing, with the bare RFC 6750 challenge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { authRecords } from '../../helpers/oauth.ts';

describe('a protected endpoint without a token', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel({ env: { AUTH_CLIENTS: 'noc-agent:operator:cucm' } });
  });
  after(async () => {
    await k.stop();
  });

  const requests: [string, string, Record<string, string>, string?][] = [
    ['GET', '/status', {}],
    ['POST', '/revoke', { 'content-type': 'application/x-www-form-urlencoded' }, 'token=x'],
    [
      'POST',
      '/mcp',
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    ],
    ['GET', '/mcp', { accept: 'text/event-stream' }],
    ['DELETE', '/mcp', {}],
  ];
  for (const [method, path, headers, body] of requests) {
    it(`${method} ${path}: 401 "a Bearer token is required", bare challenge with resource_metadata`, async () => {
      const res = await k.fetch(`${k.url}${path}`, { method, headers, ...(body ? { body } : {}) });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const json = (await res.json()) as { error: string; message: string };
      assert.equal(json.error, 'AUTH_FAILED');
      assert.equal(json.message, 'a Bearer token is required');
      assert.equal(
        res.headers.get('www-authenticate'),
        `Bearer resource_metadata="${k.url}/.well-known/oauth-protected-resource/mcp"`,
      );
      assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'missing_token');
    });
  }

  it('a token that is there but bad is still "invalid", with error="invalid_token"', async () => {
    const res = await k.fetch(`${k.url}/status`, { headers: { authorization: 'Bearer nope' } });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { message: string }).message, 'the access token is invalid');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
  });
});
