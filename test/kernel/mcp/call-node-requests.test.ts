import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallNodeRequests, MAX_LISTED_REQUESTS } from '../../../kernel/mcp/call-node-requests.ts';
import { ProfilePermissionError, RateLimitedError } from '../../../kernel/errors/index.ts';
import { currentNodeRequests, runWithNodeRequests } from '../../../kernel/sdk/node-requests.ts';
import type { NodeService, Service } from '../../../kernel/sdk/types.ts';

function recorder(declared: Service, refuse: NodeService[] = []) {
  const charged: NodeService[] = [];
  const r = new CallNodeRequests(declared, async (s) => {
    if (refuse.includes(s)) throw new RateLimitedError(`rate limit of 1 ${s} calls per 60 s exceeded`, 42);
    charged.push(s);
  });
  return { r, charged };
}

describe("one tool call's node requests: charged per service, listed bounded", () => {
  it('charges the first request to each service other than the declared one, once per call', async () => {
    const { r, charged } = recorder('default');
    await r.request({ service: 'axl', operation: 'getCCMVersion', address: '10.0.0.1:8443' });
    await r.request({ service: 'ris', operation: 'GET /x', address: '10.0.0.1:8443' });
    await r.request({ service: 'axl', operation: 'getPhone', address: '10.0.0.1:8443' });
    await r.request({ service: 'ssh', operation: 'login check', address: '10.0.0.1:22' });
    assert.deepEqual(charged, ['axl', 'ris', 'ssh']);

    const declared = recorder('axl');
    for (let i = 0; i < 5; i++)
      await declared.r.request({ service: 'axl', operation: 'listPhone', address: '10.0.0.1:8443' });
    assert.deepEqual(declared.charged, [], 'the runner charged the declared service before the handler');
  });

  it('a spent window refuses the request (nothing listed) and the next one to it is asked again', async () => {
    const { r, charged } = recorder('default', ['ris']);
    await assert.rejects(
      () => r.request({ service: 'ris', operation: 'GET /wsdl', address: 'h:8443' }),
      (err: unknown) => err instanceof RateLimitedError && err.retryAfterSeconds === 42,
    );
    await r.request({ service: 'axl', operation: 'getCCMVersion', address: 'h:8443' });
    assert.deepEqual(charged, ['axl']);
    assert.deepEqual(
      (r.auditFields().node_requests as { service: string }[]).map((e) => e.service),
      ['axl'],
    );
    await assert.rejects(() => r.request({ service: 'ris', operation: 'GET /wsdl', address: 'h:8443' }));
  });

  it('lists distinct requests with their count and the peers reached, then only counts past the cap', async () => {
    const { r } = recorder('axl');
    for (let page = 0; page < 3; page++) {
      const t = await r.request({ service: 'axl', operation: 'listPhone', address: 'cucm.example:8443' });
      t.connected(`10.0.0.${page % 2}:8443`);
    }
    (await r.request({ service: 'axl', operation: 'getPhone', address: '10.0.0.9:8443' })).connected(
      '10.0.0.9:8443',
    );
    let f = r.auditFields();
    assert.deepEqual(f.node_requests, [
      {
        service: 'axl',
        operation: 'listPhone',
        address: 'cucm.example:8443',
        count: 3,
        peers: ['10.0.0.0:8443', '10.0.0.1:8443'],
      },
      { service: 'axl', operation: 'getPhone', address: '10.0.0.9:8443', count: 1 },
    ]);
    for (let i = 0; i < MAX_LISTED_REQUESTS + 5; i++)
      await r.request({ service: 'axl', operation: `op${i}`, address: '10.0.0.9:8443' });
    f = r.auditFields();
    assert.equal((f.node_requests as unknown[]).length, MAX_LISTED_REQUESTS);
    assert.equal(f.node_requests_unlisted, 7);
  });

  it('escapes and bounds what a plugin reports', async () => {
    const { r } = recorder('ssh');
    await r.request({
      service: 'ssh',
      operation: `show x\n\u001b[2J\u2028${'y'.repeat(10_000)}`,
      address: 'h:22',
    });
    const [e] = r.auditFields().node_requests as { operation: string }[];
    assert.ok(e && e.operation.length <= 256);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    assert.doesNotMatch(e.operation, /[\n\u001b\u2028]/);
    assert.match(e.operation, /^show x\\u000A\\u001B\[2J\\u2028y+…\[10\d{3} chars\]$/);
  });

  it('refuses an undeclared service name (a plugin bug must not send unaccounted requests)', async () => {
    const { r } = recorder('axl');
    // Thrown at once: a plugin that does not await request() still sends nothing.
    assert.throws(
      () => r.request({ service: 'ftp' as NodeService, operation: 'x', address: 'h:21' }),
      TypeError,
    );
  });

  it('shared client code finds the running call through its async context, and nothing outside one', async () => {
    const { r } = recorder('cupi');
    await assert.doesNotReject(() =>
      currentNodeRequests().request({ service: 'cupi', operation: 'GET /outside', address: 'h:1' }),
    );
    await runWithNodeRequests(r, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await currentNodeRequests().request({
        service: 'cupi',
        operation: 'GET /vmrest/users',
        address: 'h:8443',
      });
    });
    assert.deepEqual(
      (r.auditFields().node_requests as { operation: string }[]).map((e) => e.operation),
      ['GET /vmrest/users'],
    );
  });

  it("asks the caller's allowlist about each subject; a refusal throws and is listed on the outcome record", () => {
    const asked: string[] = [];
    const r = new CallNodeRequests(
      'serviceability',
      async () => undefined,
      (service, subject) => {
        asked.push(`${service} ${subject}`);
        if (subject === 'perfmonOpenSession')
          throw new ProfilePermissionError(`profile p does not allow SERVICEABILITY ${subject}`);
      },
    );
    assert.doesNotThrow(() => r.permit('serviceability', 'perfmonCollectCounterData'));
    for (let i = 0; i < 2; i++)
      assert.throws(() => r.permit('serviceability', 'perfmonOpenSession'), ProfilePermissionError);
    assert.deepEqual(asked, [
      'serviceability perfmonCollectCounterData',
      'serviceability perfmonOpenSession',
      'serviceability perfmonOpenSession',
    ]);
    assert.deepEqual(r.auditFields(), {
      denied_requests: [{ service: 'serviceability', operation: 'perfmonOpenSession' }],
    });
    // Outside a tool call nothing is refused.
    assert.doesNotThrow(() => currentNodeRequests().permit('ssh', 'utils system restart'));
  });
});
