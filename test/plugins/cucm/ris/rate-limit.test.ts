import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RisRateLimitError } from '../../../../plugins/cucm/ris/errors.ts';
import { ClusterRateLimiter } from '../../../../plugins/cucm/ris/rate-limiter.ts';
import type { RisQuery } from '../../../../plugins/cucm/ris/ris-service.ts';
import { startRisLab } from './helpers.ts';
import type { RisLab } from './helpers.ts';

const ONE_DEVICE: RisQuery = { operation: 'selectCmDevice', criteria: { selectItems: ['SEP0A1B2C3D4E03'] } };
// 30 bulk phones, 10 records per answer: four pages for everything.
const ALL: RisQuery = { operation: 'selectCmDevice', maxRequests: 15 };

const isLocalLimit = (err: unknown): boolean => {
  assert.ok(err instanceof RisRateLimitError, String(err));
  assert.equal(err.code, 'RISError');
  assert.equal(err.source, 'local');
  assert.ok(
    (err.retryAfterSeconds ?? 0) > 50 && (err.retryAfterSeconds ?? 0) <= 61,
    `${err.retryAfterSeconds}`,
  );
  assert.match(err.message, /3 requests per minute, shared by all clients.*retry in \d+ s/);
  return true;
};

describe('RisPort70 cluster rate limit, kept by the client (node allows plenty)', () => {
  let r: RisLab;
  before(async () => {
    r = await startRisLab({ extraPhones: 30, risMaxDevicesPerAnswer: 10, risRateLimitPerMinute: 1000 });
    await r.ready();
  });
  after(() => r.stop());

  it('never sends the 4th request of a 3-per-minute window: refuses it with RISError and the retry time', async () => {
    const ris = r.service({ perMinute: 3, maxWaitMs: 200 });
    const before = r.risRequests();
    for (let i = 0; i < 3; i++) await ris.queryEndpoint(r.node, ONE_DEVICE, { owner: 'alice' });
    await assert.rejects(ris.queryEndpoint(r.node, ONE_DEVICE, { owner: 'alice' }), isLocalLimit);
    assert.equal(r.risRequests() - before, 3, 'the refused request never left');
  });

  it('shares the window between callers of the service, and between services given one limiter', async () => {
    const ris = r.service({ perMinute: 3, maxWaitMs: 200 });
    await ris.queryEndpoint(r.node, ONE_DEVICE, { owner: 'alice' });
    await ris.queryEndpoint(r.node, ONE_DEVICE, { owner: 'alice' });
    await ris.queryEndpoint({ ...r.node }, ONE_DEVICE, { owner: 'bob', host: 'cucm-pub' });
    await assert.rejects(ris.queryEndpoint(r.node, ONE_DEVICE, { owner: 'bob' }), isLocalLimit);

    const limiter = new ClusterRateLimiter({ perMinute: 3 });
    const a = r.service({ limiter, maxWaitMs: 200 });
    const b = r.service({ limiter, maxWaitMs: 200 });
    await a.queryEndpoint(r.node, ONE_DEVICE, { owner: 'alice' });
    await b.queryEndpoint(r.node, ONE_DEVICE, { owner: 'bob' });
    await a.queryEndpoint(r.node, ONE_DEVICE, { owner: 'carol' });
    await assert.rejects(b.queryEndpoint(r.node, ONE_DEVICE, { owner: 'bob' }), isLocalLimit);
  });

  it('waits for a free request when the wait fits, and completes', async () => {
    const ris = r.service({ perMinute: 2, windowMs: 1200, marginMs: 0, maxWaitMs: 5000 });
    const t0 = Date.now();
    const a = await ris.queryEndpoint(r.node, ALL, { owner: 'alice' });
    const took = Date.now() - t0;
    assert.equal(a.complete, true);
    assert.equal(a.requests, 4);
    assert.equal(a.devices_returned, 35);
    assert.ok(took >= 1150, `four requests at two per 1.2 s took ${took} ms`);
  });

  it('stops paging when the budget is spent, returning what it read and a cursor, never truncating silently', async () => {
    const ris = r.service({ perMinute: 2, maxWaitMs: 200 });
    const first = await ris.queryEndpoint(r.node, ALL, { owner: 'alice' });
    assert.equal(first.complete, false);
    assert.equal(first.stopped_because, 'rate_limit');
    assert.ok((first.retry_after_seconds ?? 0) > 50);
    assert.equal(first.requests, 2);
    assert.equal(first.records_read, 20);
    assert.ok(first.state_info);
    assert.deepEqual(first.rate_limit, { per_minute: 2, remaining: 0 });
    // Another server (a fresh limiter) continues the same query from the cursor.
    const other = r.service({ maxWaitMs: 200 });
    const rest = await other.queryEndpoint(
      r.node,
      { ...ALL, stateInfo: first.state_info },
      { owner: 'alice' },
    );
    assert.equal(rest.complete, true);
    assert.equal(rest.dedupe_across_calls, false, 'that server never held the first part');
    assert.equal(first.records_read + rest.records_read, 40);
  });
});

describe("RisPort70 rate limit: the node's own fault (3 per minute on the node)", () => {
  let r: RisLab;
  before(async () => {
    r = await startRisLab({ extraPhones: 30, risMaxDevicesPerAnswer: 10, risRateLimitPerMinute: 3 });
    await r.ready();
  });
  after(() => r.stop());

  it('maps the AxisFault to RISError with the retry time, learns the lower limit and stops sending', async () => {
    r.lab.state.cucm.ris.window.reset();
    const ris = r.service({ maxWaitMs: 200 });
    for (let i = 0; i < 3; i++) await ris.queryEndpoint(r.node, ONE_DEVICE, { owner: 'alice' });
    const before = r.risRequests();
    await assert.rejects(ris.queryEndpoint(r.node, ONE_DEVICE, { owner: 'alice' }), (err: unknown) => {
      assert.ok(err instanceof RisRateLimitError, String(err));
      assert.equal(err.source, 'node');
      assert.equal(err.retryAfterSeconds, 61);
      assert.match(
        err.message,
        /Exceeded allowed rate for Reatime information.*3 requests per minute.*retry in 61 s/,
      );
      return true;
    });
    assert.equal(r.risRequests() - before, 1);
    // The node said 3 per minute and refused: nothing more is sent to it before the window passes.
    r.lab.state.cucm.ris.window.reset();
    await assert.rejects(ris.queryEndpoint(r.node, ONE_DEVICE, { owner: 'bob' }), (err: unknown) => {
      assert.ok(err instanceof RisRateLimitError);
      assert.equal(err.source, 'local');
      return true;
    });
    assert.equal(r.risRequests() - before, 1, 'refused locally');
    assert.equal(await ris.limiter.limitOf('127.0.0.1:' + String(r.node.port)), 3);
  });

  it('returns the pages read before a node fault, with a cursor', async () => {
    r.lab.state.cucm.ris.window.reset();
    const ris = r.service({ maxWaitMs: 200 });
    const a = await ris.queryEndpoint(r.node, ALL, { owner: 'alice' });
    assert.equal(a.complete, false);
    assert.equal(a.stopped_because, 'rate_limit');
    assert.equal(a.retry_after_seconds, 61);
    assert.equal(a.requests, 3);
    assert.ok(a.state_info);
    assert.equal(a.records_read, 30);
  });
});
