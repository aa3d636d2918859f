// Issue 24: an address blacklisted on one instance is blocked on all, and the failures that list it
// are counted across instances. The instances trust 127.0.0.1 as a proxy, so a test request's
// X-Forwarded-For is the address it comes from (the balancer appends its own peer, 127.0.0.1, which is
// trusted and skipped).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../helpers/cluster.ts';
import type { TestKernel } from '../helpers/kernel.ts';
import { bearer } from '../helpers/oauth.ts';
import { scaleOutSkip, waitFor } from './support.ts';

const skip = scaleOutSkip();
const THRESHOLD = 4;

describe('scale-out: the IP blacklist is shared', { skip }, () => {
  let c: Cluster;
  let token: string;
  before(async () => {
    c = await startCluster({
      instances: 3,
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm',
        AUTH_BLACKLIST_THRESHOLD: String(THRESHOLD),
        AUTH_BLACKLIST_WINDOW_SECONDS: '120',
        AUTH_BLACKLIST_DURATION_SECONDS: '120',
      },
    });
    token = c.token('noc-agent');
  });
  after(async () => {
    await c?.close();
  });

  const status = async (k: TestKernel, from: string, auth: string) => {
    const res = await k.fetch(`${k.url}/status`, {
      headers: { ...bearer(auth), 'x-forwarded-for': from },
    });
    const body = (await res.json()) as { error?: string };
    return { status: res.status, error: body.error };
  };

  it('an address listed by failures on instance 1 is blocked by instances 2 and 3, even with a valid token', async () => {
    const attacker = '198.51.100.7';
    for (let i = 0; i < THRESHOLD; i++)
      assert.equal((await status(c.direct(0), attacker, 'not-a-token')).status, 401, `failure ${i + 1}`);
    assert.deepEqual(await status(c.direct(0), attacker, token), { status: 429, error: 'AUTH_BLOCKED' });
    for (const i of [1, 2])
      await waitFor(async () => (await status(c.direct(i), attacker, token)).error === 'AUTH_BLOCKED', {
        timeoutMs: 2000,
        what: `i${i + 1} does not block ${attacker}`,
      });
    // Only that address: another one with the same token is served everywhere.
    for (let i = 0; i < 3; i++)
      assert.deepEqual(await status(c.direct(i), '203.0.113.9', token), { status: 200, error: undefined });
  });

  it('failures spread over the instances by the balancer add up to one count', async () => {
    const attacker = '198.51.100.8';
    c.balancer.reset();
    // Round robin: no instance sees more than 2 of the 4 failures; alone, none would list the address.
    for (let i = 0; i < THRESHOLD; i++)
      assert.equal((await status(c.kernel, attacker, 'not-a-token')).status, 401, `failure ${i + 1}`);
    assert.ok(
      c.balancer.counts.every((n) => n <= Math.ceil(THRESHOLD / 3)),
      `spread ${c.balancer.counts.join('/')}`,
    );
    for (let i = 0; i < 3; i++)
      await waitFor(async () => (await status(c.direct(i), attacker, token)).error === 'AUTH_BLOCKED', {
        timeoutMs: 2000,
        what: `i${i + 1} does not block ${attacker} after ${THRESHOLD} failures spread over the instances`,
      });
  });
});
