import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hostnameOf } from '../../../kernel/http/middleware/transport-guard.ts';
import { rawHttpsRequest } from '../../helpers/https-client.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';

describe('Host and Origin validation (DNS rebinding)', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel({ env: { SERVER_ALLOWED_HOSTS: 'uc-mcp.example.net' } });
  });
  after(async () => {
    await k.stop();
  });

  it('a forged Host header is refused with TRANSPORT_REJECTED and audited with the value and source IP', async () => {
    const res = await rawHttpsRequest(`${k.url}/metrics`, {
      caPem: k.certPem,
      headers: { host: 'attacker.example:8443' },
    });
    assert.equal(res.status, 403);
    const body = JSON.parse(res.body) as Record<string, string>;
    assert.equal(body.error, 'TRANSPORT_REJECTED');
    assert.ok(body.request_id);
    const rec = k.auditRecords().find((r) => r.event === 'TRANSPORT' && r.status === 'INVALID_HOST');
    assert.equal(rec?.host_header, 'attacker.example:8443');
    assert.equal(rec?.ip, '127.0.0.1');
  });

  it('a Host without a name at all is refused', async () => {
    const res = await rawHttpsRequest(`${k.url}/metrics`, { caPem: k.certPem, headers: { host: 'a b' } });
    assert.ok(res.status === 403 || res.status === 400, String(res.status));
  });

  it('a foreign Origin is refused and audited', async () => {
    const res = await k.fetch(`${k.url}/metrics`, { headers: { origin: 'https://evil.example' } });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as Record<string, string>).error, 'TRANSPORT_REJECTED');
    const rec = k.auditRecords().find((r) => r.event === 'TRANSPORT' && r.status === 'INVALID_ORIGIN');
    assert.equal(rec?.origin, 'https://evil.example');
    assert.equal(rec?.ip, '127.0.0.1');
  });

  it('the "null" origin of a sandboxed page is refused', async () => {
    const res = await k.fetch(`${k.url}/metrics`, { headers: { origin: 'null' } });
    assert.equal(res.status, 403);
  });

  it('its own origin, a configured extra host and loopback names are accepted', async () => {
    const port = new URL(k.url).port;
    for (const headers of <Record<string, string>[]>[
      { origin: k.url },
      { host: `uc-mcp.example.net:${port}` },
      { host: `localhost:${port}` },
      { host: `[::1]:${port}` },
    ]) {
      const res = await rawHttpsRequest(`${k.url}/metrics`, { caPem: k.certPem, headers });
      assert.equal(res.status, 200, JSON.stringify(headers));
    }
  });

  it('hostnameOf refuses malformed Host values rather than guessing', () => {
    assert.equal(hostnameOf('LOCALHOST:1'), 'localhost');
    assert.equal(hostnameOf('[::1]:8443'), '::1');
    for (const bad of ['', 'a b', 'evil.com/x', 'user@host', 'x?y', 'x\\y'])
      assert.equal(hostnameOf(bad), '', bad);
  });
});
