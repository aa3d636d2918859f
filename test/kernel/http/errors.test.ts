import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type Router from '@koa/router';
import type { KernelState } from '../../../kernel/http/state.ts';
import { CredentialError, RateLimitedError } from '../../../kernel/errors/index.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';

// Routes that fail on purpose, installed the way later parts of the kernel install theirs.
function failingRoutes(router: Router<KernelState>): void {
  router.get('/test/unexpected', () => {
    throw new Error('ECONNREFUSED cucm-pub.corp.example:8443 password=hunter2 at /srv/app/secret.ts');
  });
  router.get('/test/coded', () => {
    throw new CredentialError('no AXL credentials stored for cucm-pub');
  });
  router.get('/test/limited', () => {
    throw new RateLimitedError('AXL rate limit exceeded', 12.2);
  });
}

describe('error bodies', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel({ installers: [failingRoutes] });
  });
  after(async () => {
    await k.stop();
  });

  it('an unexpected error gives an opaque reference: no message, stack, host, path or secret', async () => {
    const res = await k.fetch(`${k.url}/test/unexpected`);
    assert.equal(res.status, 500);
    const text = await res.text();
    const body = JSON.parse(text) as Record<string, string>;
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'request_id']);
    assert.equal(body.error, 'INTERNAL_ERROR');
    assert.ok(body.message?.includes(body.request_id as string));
    for (const leak of ['ECONNREFUSED', 'cucm-pub', 'hunter2', '/srv/app', 'at '])
      assert.ok(!text.includes(leak), leak);
    // app.log explains the reference.
    await new Promise((r) => setTimeout(r, 20));
    const { readFileSync } = await import('node:fs');
    const appLog = readFileSync(`${k.stateDir}/logs/app.log`, 'utf8');
    assert.ok(appLog.includes(body.request_id as string));
    assert.ok(
      !appLog.includes('hunter2'),
      'even app.log does not keep a password that leaked into a message',
    );
  });

  it('a coded error shows its code and message', async () => {
    const res = await k.fetch(`${k.url}/test/coded`);
    assert.equal(res.status, 400);
    const body = (await res.json()) as Record<string, string>;
    assert.equal(body.error, 'CredentialError');
    assert.equal(body.message, 'no AXL credentials stored for cucm-pub');
  });

  it('RATE_LIMITED carries Retry-After in whole seconds', async () => {
    const res = await k.fetch(`${k.url}/test/limited`);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '13');
    assert.equal(((await res.json()) as Record<string, string>).error, 'RATE_LIMITED');
  });

  it('unknown paths and wrong methods get coded errors', async () => {
    const missing = await k.fetch(`${k.url}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as Record<string, string>).error, 'NOT_FOUND');
    const wrong = await k.fetch(`${k.url}/health`, { method: 'POST' });
    assert.equal(wrong.status, 405);
    assert.equal(((await wrong.json()) as Record<string, string>).error, 'METHOD_NOT_ALLOWED');
  });
});
