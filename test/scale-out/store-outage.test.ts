// Issue 24: fail closed. While the shared store is down, every instance answers an authenticated
// request with a coded 503 (STATE_STORE_UNAVAILABLE), never with what it alone remembers (which could
// forget a revocation or a limit); when the store returns on the same address, every instance serves
// again within seconds, without a restart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../helpers/cluster.ts';
import type { TestKernel } from '../helpers/kernel.ts';
import { basicAuth, bearer, clientFiles, getStatus, postForm } from '../helpers/oauth.ts';
import { scaleOutSkip, waitFor } from './support.ts';

const skip = scaleOutSkip();

describe('scale-out: the shared store down, then back', { skip }, () => {
  let c: Cluster;
  let token: string;
  before(async () => {
    c = await startCluster({
      instances: 3,
      env: { AUTH_CLIENTS: 'noc-agent:operator:cucm', STATE_BACKEND_TIMEOUT_MS: '500' },
    });
    token = c.token('noc-agent');
  });
  after(async () => {
    await c?.close();
  });

  const status = async (k: TestKernel) => {
    const res = await k.fetch(`${k.url}/status`, { headers: bearer(token) });
    const text = await res.text();
    let error: string | undefined;
    try {
      error = (JSON.parse(text) as { error?: string }).error;
    } catch {
      error = text.slice(0, 100);
    }
    return { status: res.status, error, retryAfter: res.headers.get('retry-after') };
  };

  it('authenticated requests get 503 STATE_STORE_UNAVAILABLE while Redis is stopped, and succeed again once it is back', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await status(c.direct(i))).status, 200, `i${i + 1} before`);
    const redis = c.redis;
    assert.ok(redis);
    await redis.stop();
    try {
      for (let i = 0; i < 3; i++) {
        let last: Awaited<ReturnType<typeof status>> | undefined;
        await waitFor(
          async () => {
            last = await status(c.direct(i));
            return last.status === 503 && last.error === 'STATE_STORE_UNAVAILABLE';
          },
          { timeoutMs: 5000, everyMs: 50, what: `i${i + 1} does not refuse with STATE_STORE_UNAVAILABLE` },
        ).catch((err: Error) => assert.fail(`${err.message}; last answer ${JSON.stringify(last)}`));
      }
      // Through the balancer too, several times (every instance refuses; none serves from memory).
      for (let n = 0; n < 6; n++) {
        const s = await status(c.kernel);
        assert.deepEqual([s.status, s.error], [503, 'STATE_STORE_UNAVAILABLE']);
      }
    } finally {
      await redis.start();
    }
    const took = await Promise.all(
      [0, 1, 2].map((i) =>
        waitFor(async () => (await status(c.direct(i))).status === 200, {
          timeoutMs: 10_000,
          everyMs: 100,
          what: `i${i + 1} did not recover after Redis came back`,
        }),
      ),
    );
    console.log(`recovered after ${took.map((t) => Math.round(t)).join(' / ')} ms`);
    for (const ms of took) assert.ok(ms < 5000, `recovery took ${Math.round(ms)} ms`);
    for (let i = 0; i < 3; i++) assert.equal(c.instances[i]?.process().child.exitCode, null, 'not restarted');
  });

  // The store in these tests keeps nothing on disk (as a store without persistence, or one replaced by an
  // empty replica): what the instances wrote to it is gone when it returns. A revocation must not be.
  it('a token revoked before the store restarted empty is still refused by every instance', async () => {
    const got = await postForm(
      c.kernel,
      '/token',
      { grant_type: 'client_credentials' },
      { authorization: basicAuth('noc-agent', clientFiles(c.stateDir, 'noc-agent').secret) },
    );
    assert.equal(got.status, 200, await got.clone().text());
    const revoked = ((await got.json()) as { access_token: string }).access_token;
    assert.equal((await postForm(c.kernel, '/revoke', { token: revoked }, bearer(revoked))).status, 200);
    const redis = c.redis;
    assert.ok(redis);
    await redis.stop();
    await redis.start();
    for (let i = 0; i < 3; i++)
      await waitFor(async () => (await status(c.direct(i))).status === 200, {
        timeoutMs: 10_000,
        everyMs: 100,
        what: `i${i + 1} did not recover`,
      });
    for (let i = 0; i < 3; i++) {
      const s = await getStatus(c.direct(i), revoked);
      assert.equal(s.body.error, 'AUTH_REVOKED', `i${i + 1} answered ${s.status} to a revoked token`);
    }
  });
});
