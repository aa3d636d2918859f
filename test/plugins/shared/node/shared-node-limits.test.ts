// Node limits shared by several instances: the windows and the "lowered limit / blocked until" state
// of plugins/_shared/node/window-limiter.ts live in stores every instance reads, so a node's budget
// (RisPort70's 15 a minute) holds for all of them together and a node's refusal seen by one instance
// holds back the others. In memory first (the shape), then over a real redis-server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { RedisSlidingWindowStore, unavailable } from '../../../../kernel/store/backend/redis-windows.ts';
import { RisRateLimitError } from '../../../../plugins/cucm/ris/errors.ts';
import { ClusterRateLimiter } from '../../../../plugins/cucm/ris/rate-limiter.ts';
import {
  MemoryLimitStateStore,
  MemoryWindowStore,
  nodeLimitStores,
  type LimitStateStore,
} from '../../../../plugins/_shared/node/window-limiter.ts';
import { NodeServiceLimits } from '../../../../plugins/_shared/serviceability/limits.ts';
import { PERFMON_API } from '../../../../plugins/_shared/serviceability/perfmon/api.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../../helpers/redis-server.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the redis node-limit tests: ${skip}`);

describe('node limits shared through common stores', () => {
  it("one instance's node fault blocks the key and lowers the limit for every instance", async () => {
    const store = new MemoryWindowStore();
    const states = new MemoryLimitStateStore();
    const a = new ClusterRateLimiter({ perMinute: 15, windowMs: 30_000, store, states });
    const b = new ClusterRateLimiter({ perMinute: 15, windowMs: 30_000, store, states });
    assert.equal(await a.nodeRefused('pub:8443', 3), 31);
    assert.equal(await b.limitOf('pub:8443'), 3);
    assert.equal(await b.remaining('pub:8443'), 0);
    await assert.rejects(b.acquire('pub:8443', 0), (err: unknown) => {
      assert.ok(err instanceof RisRateLimitError);
      assert.match(err.message, /3 requests per minute/);
      return true;
    });
    assert.deepEqual(await b.budget('other:8443'), { per_minute: 15, remaining: 15 });
  });

  it('the kernel-shared stores are namespaced per use; without them each plugin keeps its own memory', async () => {
    const windows = new MemoryWindowStore();
    const records = new MemoryLimitStateStore();
    const ris = nodeLimitStores({ windows, records }, 'node|ris');
    await ris.windows.hit('pub:8443', 60_000, 1);
    assert.equal(await windows.count('node|ris|pub:8443', 60_000), 1);
    const alone = nodeLimitStores(undefined, 'node|ris');
    assert.equal(await alone.windows.count('pub:8443', 60_000), 0);
  });
});

describe('node limits over a real redis-server (three instances)', { skip }, () => {
  let redis: RedisHandle;
  const clients: Redis[] = [];
  const instance = async (name: string) => {
    const c = new Redis(redis.url, {
      enableOfflineQueue: false,
      commandTimeout: 2000,
      maxRetriesPerRequest: 0,
    });
    c.on('error', () => {});
    clients.push(c);
    if (c.status !== 'ready') await new Promise((r) => c.once('ready', r));
    // The backend's record store in miniature (kernel/store/backend/redis-records.ts), failing closed alike.
    const records: LimitStateStore = {
      get: (k) =>
        c.get(`t:r:${k}`).then(
          (v) => v ?? undefined,
          (e: unknown) => Promise.reject(unavailable(e)),
        ),
      set: (k, v, ttl) =>
        c.set(`t:r:${k}`, v, 'PX', Math.max(1, Math.ceil(ttl))).then(
          () => undefined,
          (e: unknown) => Promise.reject(unavailable(e)),
        ),
    };
    return nodeLimitStores({ windows: new RedisSlidingWindowStore(c, 't:w:', name), records }, 'node|ris');
  };

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const c of clients) c.disconnect();
    await redis?.cleanup();
  });

  it('the RisPort70 budget of 15 a minute holds for 200 parallel queries spread over 3 instances', async () => {
    const limiters = await Promise.all(
      ['one', 'two', 'three'].map(async (n) => {
        const s = await instance(n);
        return new ClusterRateLimiter({ store: s.windows, states: s.states });
      }),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => (limiters[i % 3] as ClusterRateLimiter).acquire('cluster-a', 0)),
    );
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 15);
    for (const o of outcomes)
      if (o.status === 'rejected') assert.ok(o.reason instanceof RisRateLimitError, String(o.reason));
    for (const l of limiters) assert.equal(await l.remaining('cluster-a'), 0);
  });

  it("a node's refusal seen by one instance blocks the others, and its lower limit is theirs", async () => {
    const [a, b] = await Promise.all(
      ['one', 'two'].map(async (n) => {
        const s = await instance(n);
        return new ClusterRateLimiter({ windowMs: 200, marginMs: 0, store: s.windows, states: s.states });
      }),
    );
    await (a as ClusterRateLimiter).nodeRefused('cluster-b', 2);
    await assert.rejects((b as ClusterRateLimiter).acquire('cluster-b', 0), RisRateLimitError);
    assert.equal(await (b as ClusterRateLimiter).limitOf('cluster-b'), 2);
    await (b as ClusterRateLimiter).acquire('cluster-b', 1000);
    await (a as ClusterRateLimiter).acquire('cluster-b', 0);
    await assert.rejects(
      (b as ClusterRateLimiter).acquire('cluster-b', 0),
      RisRateLimitError,
      'the node said 2',
    );
  });

  it('serviceability budgets (PerfMon) are per node and API across instances', async () => {
    const [x, y] = await Promise.all(['one', 'two'].map((n) => instance(n)));
    const mk = (s: Awaited<ReturnType<typeof instance>>) =>
      new NodeServiceLimits({ perMinute: { [PERFMON_API.name]: 3 }, store: s.windows, states: s.states });
    const lx = mk(x as Awaited<ReturnType<typeof instance>>);
    const ly = mk(y as Awaited<ReturnType<typeof instance>>);
    const node = { host: 'cucm-pub', port: 8443 };
    await lx.of(PERFMON_API).acquire('cucm-pub:8443', 0);
    await ly.of(PERFMON_API).acquire('cucm-pub:8443', 0);
    assert.deepEqual(await lx.budget(PERFMON_API, node), { per_minute: 3, remaining: 1 });
    await ly.of(PERFMON_API).acquire('cucm-pub:8443', 0);
    await assert.rejects(
      lx.of(PERFMON_API).acquire('cucm-pub:8443', 0),
      /PerfmonService budget of cucm-pub:8443/,
    );
  });

  it('an unreachable store refuses with STATE_STORE_UNAVAILABLE instead of counting alone', async () => {
    const s = await instance('one');
    const l = new ClusterRateLimiter({ store: s.windows, states: s.states });
    await redis.stop();
    try {
      await assert.rejects(l.acquire('cluster-c', 0), { code: 'STATE_STORE_UNAVAILABLE' });
    } finally {
      await redis.start();
    }
  });
});
