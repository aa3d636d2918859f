// Issue 24 across two instances sharing one real redis-server (two backends in this process stand for
// two instances): a singleton job runs on one of them at a time and moves when its holder stops, and a
// profile or license change seen by one reaches the other, which reloads it and tells its sessions,
// without notices echoing back and forth.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bunyan from 'bunyan';
import type { Config } from '../../../kernel/config/schema.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { ProfileStore } from '../../../kernel/rbac/profile-store.ts';
import { shareChangeNotices } from '../../../kernel/store/backend/change-notices.ts';
import { LocalBackend } from '../../../kernel/store/backend/local-backend.ts';
import { openStateBackend } from '../../../kernel/store/backend/open-backend.ts';
import { singletonJob, withLease } from '../../../kernel/store/backend/singleton-job.ts';
import type { StateBackend } from '../../../kernel/store/backend/state-backend.ts';
import type { Watchdog } from '../../../kernel/watchdogs/runner.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the shared jobs and notices tests: ${skip}`);

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const log = bunyan.createLogger({ name: 'test', streams: [{ level: 'fatal', stream: process.stderr }] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function open(url: string, instance: string): Promise<StateBackend> {
  const config = {
    STATE_BACKEND: url,
    STATE_BACKEND_PASSWORD_ENC: '',
    STATE_BACKEND_TLS_CA_FILE: '',
    STATE_BACKEND_TIMEOUT_MS: 500,
    INSTANCE_ID: instance,
  } as Config;
  return openStateBackend(config, { privateKey: keys.privateKey, log, instanceLeaseMs: 600 });
}

function countingDog(runs: string[], who: string): Watchdog {
  return {
    name: 'backup',
    intervalMs: 1000,
    runOnStart: true,
    run: () => {
      runs.push(who);
      return Promise.resolve();
    },
  };
}

describe('singletonJob with the local backend', () => {
  it('is the job itself', () => {
    const dog = countingDog([], 'x');
    assert.equal(singletonJob(dog, new LocalBackend('solo'), log), dog);
  });
});

describe('shared jobs and change notices', { skip }, () => {
  let redis: RedisHandle;
  let a: StateBackend;
  let b: StateBackend;
  let dir: string;
  before(async () => {
    redis = await startRedis();
    a = await open(redis.url, 'job-a');
    b = await open(redis.url, 'job-b');
    dir = mkdtempSync(join(tmpdir(), 'ucmcp-profiles-'));
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await redis?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('withLease runs a step of every starting instance one instance at a time (startup tokens)', async () => {
    let inside = 0;
    let most = 0;
    const order: string[] = [];
    const step = (who: string) => async () => {
      inside++;
      most = Math.max(most, inside);
      order.push(who);
      await sleep(150);
      inside--;
    };
    await Promise.all([withLease(a, 'startup-tokens', step('a')), withLease(b, 'startup-tokens', step('b'))]);
    assert.equal(most, 1, 'never two at once');
    assert.equal(order.length, 2);
    // A holder that does not give the lease back (it died) delays the next by the lease only.
    assert.ok(await a.leases.acquire('stuck', 300));
    const t = performance.now();
    await withLease(b, 'stuck', () => Promise.resolve(), { leaseMs: 300 });
    assert.ok(performance.now() - t < 2000);
    // One that keeps holding it: the wait is bounded, and the step refused with a clear error.
    assert.ok(await a.leases.acquire('held', 5000));
    await assert.rejects(
      withLease(b, 'held', () => Promise.resolve(), { waitMs: 200 }),
      /has held "held"/,
    );
    await a.leases.release('held');
  });

  it('runs a singleton job on one instance at a time, and on another once its holder stops', async () => {
    const runs: string[] = [];
    const stopA = new AbortController();
    const stopB = new AbortController();
    const jobA = singletonJob(countingDog(runs, 'a'), a, log, 300);
    const jobB = singletonJob(countingDog(runs, 'b'), b, log, 300);
    for (let i = 0; i < 5; i++) {
      await Promise.all([jobA.run(stopA.signal), jobB.run(stopB.signal)]);
      // Longer than the lease: only the holder's renewal keeps it.
      await sleep(120);
    }
    await sleep(400);
    await jobB.run(stopB.signal);
    assert.equal(runs.length, 5, `one run per round: ${runs.join(',')}`);
    assert.equal(new Set(runs).size, 1, 'the job stays on its holder');
    // The holder stops (its runner's signal aborts): the lease is given back, and the other takes the job.
    const [holderStop, other, otherSignal, otherName] =
      runs[0] === 'a' ? [stopA, jobB, stopB.signal, 'b'] : [stopB, jobA, stopA.signal, 'a'];
    holderStop.abort();
    await sleep(100);
    await other.run(otherSignal);
    assert.equal(runs.at(-1), otherName, 'the job moved to the other instance');
    stopA.abort();
    stopB.abort();
  });

  it('passes a profile change to the other instance, which reloads it once', async () => {
    const shipped = readFileSync(join(PROJECT_ROOT, 'profiles', '_default', 'operator.json'), 'utf8');
    writeFileSync(join(dir, 'operator.json'), shipped);
    const pa = new ProfileStore(dir, log);
    const pb = new ProfileStore(dir, log);
    pa.loadAll();
    pb.loadAll();
    const changedB: string[] = [];
    const changedA: string[] = [];
    pb.onChange((n) => changedB.push(n));
    pa.onChange((n) => changedA.push(n));
    const license = () => ({ onChange: () => () => undefined, load: () => Promise.resolve() });
    const offA = shareChangeNotices(a, { profiles: pa, license: license() }, log);
    const offB = shareChangeNotices(b, { profiles: pb, license: license() }, log);
    await sleep(200); // both subscriptions in place
    const edited = JSON.parse(shipped) as { description?: string };
    edited.description = 'edited on a shared volume';
    writeFileSync(join(dir, 'operator.json'), JSON.stringify(edited, null, 2));
    // What instance a's file watcher does on a change; b's host does not see it (another machine).
    assert.equal(pa.refresh('operator'), true);
    const deadline = Date.now() + 5000;
    while (changedB.length === 0 && Date.now() < deadline) await sleep(20);
    assert.deepEqual(changedB, ['operator'], 'b reloaded it');
    assert.equal((pb.get('operator') as { description?: string }).description, 'edited on a shared volume');
    await sleep(300);
    assert.deepEqual(changedB, ['operator'], 'no echo');
    assert.deepEqual(changedA, ['operator'], 'no echo');
    assert.equal(pb.refresh('../operator'), false, 'a notice names a profile, never a path');
    offA();
    offB();
  });

  it('re-evaluates the license on every instance when one sees it change', async () => {
    const listeners: (() => void)[] = [];
    let loadsB = 0;
    const srcA = {
      profiles: { onChange: () => () => undefined, refresh: () => false },
      license: {
        onChange: (l: () => void) => {
          listeners.push(l);
          return () => undefined;
        },
        load: () => Promise.resolve(),
      },
    };
    const srcB = {
      profiles: { onChange: () => () => undefined, refresh: () => false },
      license: {
        onChange: () => () => undefined,
        load: () => {
          loadsB++;
          return Promise.resolve();
        },
      },
    };
    const offA = shareChangeNotices(a, srcA, log);
    const offB = shareChangeNotices(b, srcB, log);
    await sleep(200);
    for (const l of listeners) l();
    const deadline = Date.now() + 5000;
    while (loadsB === 0 && Date.now() < deadline) await sleep(20);
    assert.equal(loadsB, 1);
    offA();
    offB();
  });
});
