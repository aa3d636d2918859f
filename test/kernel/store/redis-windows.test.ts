// The shared sliding windows (kernel/store/backend/redis-windows.ts) against a real redis-server: the same
// admission decisions as the memory store, case for case, and a limit that holds when several clients
// (standing for several instances) race for its last slots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { RateLimitedError, StateStoreUnavailableError } from '../../../kernel/errors/index.ts';
import { RateLimiter } from '../../../kernel/rbac/rate-limiter.ts';
import { RedisSlidingWindowStore } from '../../../kernel/store/backend/redis-windows.ts';
import { MemorySlidingWindowStore, type SlidingWindowStore } from '../../../kernel/store/sliding-window.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the redis window tests: ${skip}`);

type Step =
  | { op: 'hit'; at: number; limit: number; want: { admitted: boolean; count: number; retryAfterMs: number } }
  | { op: 'count'; at: number; want: number }
  | { op: 'reset' }
  /** Gives back the event the hit at step `of` (an index into the steps) recorded. */
  | { op: 'release'; of: number };

const W = 60_000;
const T0 = 1_700_000_000_000;
const hit = (at: number, limit: number, admitted: boolean, count: number, retryAfterMs = 0): Step => ({
  op: 'hit',
  at: T0 + at,
  limit,
  want: { admitted, count, retryAfterMs },
});
const count = (at: number, want: number): Step => ({ op: 'count', at: T0 + at, want });
const release = (of: number): Step => ({ op: 'release', of });

const CASES: { name: string; steps: Step[] }[] = [
  {
    name: 'admits `limit` events, then says when the oldest leaves',
    steps: [
      hit(0, 3, true, 1),
      hit(1000, 3, true, 2),
      hit(2000, 3, true, 3),
      hit(10_000, 3, false, 3, 50_000),
      count(10_000, 3),
    ],
  },
  {
    name: 'an event at exactly now - window has left the window',
    steps: [hit(0, 1, true, 1), hit(W - 1, 1, false, 1, 1), count(W, 0), hit(W, 1, true, 1)],
  },
  {
    name: 'events age out one by one (sliding, not fixed)',
    steps: [
      hit(0, 3, true, 1),
      hit(1000, 3, true, 2),
      hit(2000, 3, true, 3),
      count(60_500, 2),
      hit(60_500, 3, true, 3),
      hit(60_600, 3, false, 3, 400),
      count(62_000, 1),
    ],
  },
  {
    name: 'two events at the same millisecond both count',
    steps: [hit(5, 5, true, 1), hit(5, 5, true, 2), hit(5, 5, true, 3), count(5, 3)],
  },
  {
    name: 'a lowered limit waits for enough events to leave',
    steps: [
      hit(0, 4, true, 1),
      hit(1000, 4, true, 2),
      hit(2000, 4, true, 3),
      hit(3000, 4, true, 4),
      hit(4000, 2, false, 4, 58_000),
    ],
  },
  {
    name: 'a limit of zero admits nothing',
    steps: [hit(0, 0, false, 0, W), count(0, 0)],
  },
  {
    name: 'release gives back exactly the event its ticket names, once',
    steps: [
      hit(0, 3, true, 1),
      hit(1000, 3, true, 2),
      hit(2000, 3, true, 3),
      hit(3000, 3, false, 3, 57_000),
      release(1),
      count(3000, 2),
      release(1),
      count(3000, 2),
      hit(3000, 3, true, 3),
      hit(3500, 3, false, 3, 56_500),
      release(0),
      count(3500, 2),
      hit(3500, 3, true, 3),
    ],
  },
  {
    name: 'release of an event that has left the window, or after a reset, changes nothing',
    steps: [
      hit(0, 2, true, 1),
      hit(1000, 2, true, 2),
      count(W + 500, 1),
      release(0),
      count(W + 500, 1),
      hit(W + 500, 2, true, 2),
      { op: 'reset' },
      release(1),
      count(W + 600, 0),
      hit(W + 600, 2, true, 1),
    ],
  },
  {
    name: 'reset forgets the key',
    steps: [hit(0, 1, true, 1), hit(1, 1, false, 1, W - 1), { op: 'reset' }, count(1, 0), hit(2, 1, true, 1)],
  },
];

async function play(store: SlidingWindowStore, key: string, steps: Step[]): Promise<unknown[]> {
  const seen: unknown[] = [];
  const tickets: (string | undefined)[] = [];
  for (const s of steps) {
    if (s.op === 'hit') {
      // The ticket names the event (for release): present exactly when admitted; its form is the store's.
      const { ticket, ...r } = await store.hit(key, W, s.limit, s.at);
      assert.equal(typeof ticket === 'string', r.admitted, 'a ticket exactly for an admitted event');
      tickets[seen.length] = ticket;
      seen.push(r);
    } else if (s.op === 'count') seen.push(await store.count(key, W, s.at));
    else if (s.op === 'release') seen.push(await store.release(key, tickets[s.of] as string));
    else seen.push(await store.reset(key));
  }
  return seen;
}

describe('RedisSlidingWindowStore (real redis-server)', { skip }, () => {
  let redis: RedisHandle;
  const clients: Redis[] = [];
  const client = (): Redis => {
    const c = new Redis(redis.url, {
      enableOfflineQueue: false,
      commandTimeout: 2000,
      maxRetriesPerRequest: 0,
    });
    c.on('error', () => {}); // reconnects on its own; the commands report the outage
    clients.push(c);
    return c;
  };
  const ready = async (c: Redis): Promise<Redis> => {
    if (c.status !== 'ready') await new Promise((r) => c.once('ready', r));
    return c;
  };

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const c of clients) c.disconnect();
    await redis?.cleanup();
  });

  for (const c of CASES) {
    it(`same decisions as the memory store: ${c.name}`, async () => {
      const want = c.steps.map((s) => (s.op === 'reset' || s.op === 'release' ? undefined : s.want));
      assert.deepEqual(await play(new MemorySlidingWindowStore(), 'k', c.steps), want, 'memory');
      const store = new RedisSlidingWindowStore(await ready(client()), 'test:win:', 'a');
      assert.deepEqual(await play(store, `case:${c.name}`, c.steps), want, 'redis');
    });
  }

  it('keys carry the prefix and expire once their events have left', async () => {
    const c = await ready(client());
    const store = new RedisSlidingWindowStore(c, 'test:ttl:', 'a');
    await store.hit('k', 5000, 3);
    const ttl = await c.pttl('test:ttl:k');
    assert.ok(ttl > 0 && ttl <= 6000, `a TTL about the window, not ${ttl}`);
  });

  it('three instances firing 200 parallel hits at a limit of 15 admit exactly 15', async () => {
    const stores = await Promise.all(
      ['one', 'two', 'three'].map(
        async (name) => new RedisSlidingWindowStore(await ready(client()), 'race:', name),
      ),
    );
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (stores[i % 3] as RedisSlidingWindowStore).hit('ris|cluster', W, 15, now),
      ),
    );
    assert.equal(results.filter((r) => r.admitted).length, 15);
    assert.equal(await (stores[0] as RedisSlidingWindowStore).count('ris|cluster', W, now), 15);
    for (const r of results.filter((x) => !x.admitted)) assert.equal(r.retryAfterMs, W);
  });

  it("a client's rate limit (RateLimiter) holds across three instances under parallel calls", async () => {
    const limiters = await Promise.all(
      ['one', 'two', 'three'].map(
        async (name) =>
          new RateLimiter(new RedisSlidingWindowStore(await ready(client()), 'rl:', name), Date.now),
      ),
    );
    const window = { limit: 10, windowSeconds: 60 };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 90 }, (_, i) =>
        (limiters[i % 3] as RateLimiter).take('alice', 'cucm', 'axl', window),
      ),
    );
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 10);
    for (const o of outcomes)
      if (o.status === 'rejected') assert.ok(o.reason instanceof RateLimitedError, String(o.reason));
    assert.equal(await (limiters[1] as RateLimiter).remaining('alice', 'cucm', 'axl', window), 0);
    assert.equal(await (limiters[2] as RateLimiter).remaining('bob', 'cucm', 'axl', window), 10);
  });

  it('an unreachable store rejects with STATE_STORE_UNAVAILABLE, then works again when it returns', async () => {
    const c = await ready(client());
    const store = new RedisSlidingWindowStore(c, 'test:outage:', 'a');
    assert.equal((await store.hit('k', W, 5)).admitted, true);
    await redis.stop();
    try {
      for (const attempt of [
        () => store.hit('k', W, 5),
        () => store.count('k', W),
        () => store.release('k', 'a:0:0'),
        () => store.reset('k'),
      ]) {
        await assert.rejects(attempt(), (err: unknown) => {
          assert.ok(err instanceof StateStoreUnavailableError, String(err));
          assert.equal(err.code, 'STATE_STORE_UNAVAILABLE');
          assert.equal(err.status, 503);
          assert.doesNotMatch(err.message, /redis:\/\/|password/i);
          return true;
        });
      }
    } finally {
      await redis.start();
    }
    await ready(c);
    // The server came back empty (no persistence): the script is loaded again on its own (NOSCRIPT).
    assert.equal((await store.hit('k', W, 5)).admitted, true);
  });
});
