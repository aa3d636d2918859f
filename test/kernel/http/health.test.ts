import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rawHttpsRequest } from '../../helpers/https-client.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';

describe('GET /health', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel();
  });
  after(async () => {
    await k.stop();
  });

  it('answers ok without authentication', async () => {
    const res = await k.fetch(`${k.url}/health`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'ok');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('answers whatever Host a load balancer sends', async () => {
    const res = await rawHttpsRequest(`${k.url}/health`, { caPem: k.certPem, headers: { host: '10.1.2.3' } });
    assert.equal(res.status, 200);
    assert.equal(res.body, 'ok');
    const other = await rawHttpsRequest(`${k.url}/metrics`, {
      caPem: k.certPem,
      headers: { host: '10.1.2.3' },
    });
    assert.equal(other.status, 403, 'the same Host is refused on any other path');
  });
});
