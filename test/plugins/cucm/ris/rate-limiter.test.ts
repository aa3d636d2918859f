import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RisRateLimitError } from '../../../../plugins/cucm/ris/errors.ts';
import { ClusterRateLimiter, MemoryWindowStore } from '../../../../plugins/cucm/ris/rate-limiter.ts';

describe('the cluster RisPort70 window', () => {
  it('admits the limit, then waits for the oldest request to age out when that fits', async () => {
    const limiter = new ClusterRateLimiter({ perMinute: 3, windowMs: 400, marginMs: 0 });
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) await limiter.acquire('pub:8443', 0);
    assert.equal(await limiter.remaining('pub:8443'), 0);
    await limiter.acquire('pub:8443', 2000);
    const waited = Date.now() - t0;
    assert.ok(waited >= 380, `the 4th request waited ${waited} ms for the window`);
  });

  it('refuses with the retry time when the wait would be longer than allowed', async () => {
    const limiter = new ClusterRateLimiter({ perMinute: 2, windowMs: 30_000, marginMs: 0 });
    await limiter.acquire('pub:8443', 0);
    await limiter.acquire('pub:8443', 0);
    await assert.rejects(limiter.acquire('pub:8443', 100), (err: unknown) => {
      assert.ok(err instanceof RisRateLimitError);
      assert.equal(err.code, 'RISError');
      assert.equal(err.source, 'local');
      assert.ok(
        err.retryAfterSeconds !== undefined && err.retryAfterSeconds >= 29 && err.retryAfterSeconds <= 30,
      );
      assert.match(
        err.message,
        /2 requests per minute, shared by all clients.*retry in 30 s \(after \d\d:\d\d:\d\d UTC\)/,
      );
      return true;
    });
  });

  it('keeps one window per cluster', async () => {
    const limiter = new ClusterRateLimiter({ perMinute: 1, windowMs: 30_000 });
    await limiter.acquire('a:8443', 0);
    await limiter.acquire('b:8443', 0);
    await assert.rejects(limiter.acquire('a:8443', 0), RisRateLimitError);
  });

  it('never admits more than the limit to concurrent callers within a window', async () => {
    const limiter = new ClusterRateLimiter({ perMinute: 4, windowMs: 300, marginMs: 0 });
    const admitted: number[] = [];
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 10 }, () =>
        limiter.acquire('c:8443', 5000).then(() => admitted.push(Date.now() - t0)),
      ),
    );
    admitted.sort((a, b) => a - b);
    for (let i = 4; i < admitted.length; i++) {
      assert.ok(
        (admitted[i] as number) - (admitted[i - 4] as number) >= 295,
        `request ${i} came ${(admitted[i] as number) - (admitted[i - 4] as number)} ms after the one 4 before it`,
      );
    }
  });

  it("after the node's own fault, blocks the cluster a whole window and adopts the lower limit it announced", async () => {
    const limiter = new ClusterRateLimiter({ perMinute: 15, windowMs: 300, marginMs: 0 });
    assert.equal(await limiter.nodeRefused('d:8443', 3), 1);
    assert.equal(await limiter.limitOf('d:8443'), 3);
    assert.equal(await limiter.remaining('d:8443'), 0);
    await assert.rejects(limiter.acquire('d:8443', 0), RisRateLimitError);
    await limiter.acquire('d:8443', 1000);
    await limiter.acquire('d:8443', 0);
    await limiter.acquire('d:8443', 0);
    await assert.rejects(
      limiter.acquire('d:8443', 0),
      RisRateLimitError,
      'the 4th within the window: the node said 3',
    );
  });

  it('gives up waiting when the call is cancelled', async () => {
    const limiter = new ClusterRateLimiter({ perMinute: 1, windowMs: 10_000 });
    await limiter.acquire('e:8443', 0);
    const abort = new AbortController();
    const waiting = limiter.acquire('e:8443', 20_000, abort.signal);
    abort.abort();
    await assert.rejects(waiting, { name: 'AbortError' });
  });

  it('shares windows through a common store (the shape a multi-server store implements)', async () => {
    const store = new MemoryWindowStore();
    const a = new ClusterRateLimiter({ perMinute: 2, windowMs: 30_000, store });
    const b = new ClusterRateLimiter({ perMinute: 2, windowMs: 30_000, store });
    await a.acquire('f:8443', 0);
    await b.acquire('f:8443', 0);
    await assert.rejects(a.acquire('f:8443', 0), RisRateLimitError);
  });
});
