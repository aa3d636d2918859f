// Issue 24: the blacklist's reservations decided in the shared store (real redis-server). Three
// IpBlacklist instances, each on its own backend and connection as three server instances would be,
// receive parallel secret checks from one address: the threshold holds for all of them together (not
// once per instance), the address is listed once, and a check that succeeds gives its place back.
import assert from 'node:assert/strict';
import type { KeyObject } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { AuditLog } from '../../../kernel/audit/audit-log.ts';
import {
  IpBlacklist,
  openBlacklistStoreOn,
  type FailureReservation,
} from '../../../kernel/auth/ip-blacklist.ts';
import { RedisBackend } from '../../../kernel/store/backend/redis-backend.ts';
import { RedisConnection } from '../../../kernel/store/backend/redis-connection.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the blacklist-across-instances tests: ${skip}`);

const THRESHOLD = 5;
const PARALLEL = 60;
const settings = { threshold: THRESHOLD, windowMs: 60_000, durationMs: 600_000 };
type Admitted = Extract<FailureReservation, { ok: true }>;

async function until(what: string, ok: () => boolean, ms = 2000): Promise<void> {
  const t0 = performance.now();
  while (!ok()) {
    if (performance.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(2);
  }
}

describe('IP blacklist reservations across three instances (real redis-server)', { skip }, () => {
  let redis: RedisHandle;
  const backends: RedisBackend[] = [];
  const state = tempStateDir();
  const records: Record<string, unknown>[] = [];

  const backend = async (instance: string): Promise<RedisBackend> =>
    new RedisBackend(
      await RedisConnection.open({
        url: redis.url,
        passwordEnc: '',
        caFile: '',
        timeoutMs: 2000,
        privateKey: undefined as unknown as KeyObject,
      }),
      instance,
    );

  /** Three blacklists, one per instance, each with its own audit (tagged) over one shared store. */
  const instances = async (): Promise<IpBlacklist[]> =>
    Promise.all(
      backends.map(
        async (b, i) =>
          new IpBlacklist(
            await openBlacklistStoreOn(b, join(state.dir, 'secrets', 'ip_blacklist.json')),
            b.windows,
            {
              write: (e: Record<string, unknown>) => records.push({ ...e, instance: i }),
            } as unknown as AuditLog,
            settings,
          ),
      ),
    );

  /** PARALLEL reservations for `ip`, spread round robin over the instances, all sent at once. */
  const flood = (lists: IpBlacklist[], ip: string): Promise<FailureReservation[]> =>
    Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => (lists[i % lists.length] as IpBlacklist).reserve(ip)),
    );

  before(async () => {
    redis = await startRedis();
    for (const name of ['one', 'two', 'three']) backends.push(await backend(name));
    mkdirSync(join(state.dir, 'secrets'), { recursive: true });
  });
  after(async () => {
    for (const b of backends) await b.close();
    await redis?.cleanup();
    state.cleanup();
  });

  it(`${PARALLEL} parallel checks over three instances: ${THRESHOLD} run in all, and the address is listed once`, async () => {
    const lists = await instances();
    const ip = '198.51.100.24';
    const first = await flood(lists, ip);
    const admitted = first.filter((r): r is Admitted => r.ok);
    // Each instance alone would have admitted THRESHOLD (3 x 5 = 15) with per-instance reservations.
    assert.equal(admitted.length, THRESHOLD, 'admitted in total, across the three instances');
    for (const r of first.filter((x) => !x.ok))
      assert.deepEqual(r, { ok: false, why: 'threshold', retryAfterSeconds: 1 }, 'in flight: soon decided');

    // Slow checks: while they run, more arrive on every instance and are refused as well.
    await sleep(50);
    assert.equal((await flood(lists, ip)).filter((r) => r.ok).length, 0, 'still full while in flight');

    // They all fail at once, each reported on the instance that ran it.
    const listedBy = await Promise.all(
      first.map(async (r, i) => {
        if (!r.ok) return false;
        await r.settle('failed');
        return (lists[i % 3] as IpBlacklist).recordFailure(ip, undefined, { counted: true });
      }),
    );
    assert.equal(listedBy.filter(Boolean).length, 1, 'one call lists it');
    const listed = records.filter((r) => r.status === 'IP_BLACKLISTED' && r.ip === ip);
    assert.equal(listed.length, 1, `audited once, not per instance: ${JSON.stringify(listed)}`);
    assert.equal(listed[0]?.failures, THRESHOLD);
    for (const b of lists) await until('blocked on every instance', () => b.activeCount() === 1);
    for (const r of await flood(lists, ip)) assert.equal(!r.ok && r.why, 'blocked');
  });

  it('a check that succeeds gives its place back; one whose holder is gone stays counted', async () => {
    const lists = await instances();
    const ip = '198.51.100.25';
    const first = (await flood(lists, ip)).filter((r): r is Admitted => r.ok);
    assert.equal(first.length, THRESHOLD);
    // Three succeed (on whatever instance), one fails, one is never settled (its instance died).
    await Promise.all(first.slice(0, 3).map((r) => r.settle('succeeded')));
    await (first[3] as Admitted).settle('failed');
    const second = (await flood(lists, ip)).filter((r): r is Admitted => r.ok);
    assert.equal(second.length, 3, 'the three given back, and only those, are free again');
    await Promise.all(second.map((r) => r.settle('succeeded')));
    const third = (await flood(lists, ip)).filter((r): r is Admitted => r.ok);
    assert.equal(third.length, 3, 'succeeding again and again costs nothing');
    await Promise.all(third.map((r) => r.settle('succeeded')));
    assert.equal(records.filter((r) => r.ip === ip).length, 0, 'one failure is far from a listing');
  });
});
