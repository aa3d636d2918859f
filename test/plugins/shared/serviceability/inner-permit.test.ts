// The serviceability client asks the caller's allowlist about every operation before it takes a slot
// of the node's budget or sends a byte; a PerfMon session asks for all of its operations before it
// opens one, so a refused close never strands an open session on the node.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ProfilePermissionError } from '../../../../kernel/errors/index.ts';
import { CallNodeRequests } from '../../../../kernel/mcp/call-node-requests.ts';
import { runWithNodeRequests } from '../../../../kernel/sdk/node-requests.ts';
import { ServiceabilityClient } from '../../../../plugins/_shared/serviceability/client.ts';
import { PERFMON_API, PERFMON_OPS } from '../../../../plugins/_shared/serviceability/perfmon/api.ts';
import { sampleTwice, type Send } from '../../../../plugins/_shared/serviceability/perfmon/calls.ts';

/** A call that refuses `denied` as the kernel would for a narrowed client. */
function narrowedCall(denied: string): CallNodeRequests {
  return new CallNodeRequests(
    'serviceability',
    async () => undefined,
    (service, subject) => {
      if (subject === denied)
        throw new ProfilePermissionError(`profile p does not allow ${service.toUpperCase()} ${subject}`);
    },
  );
}

describe('serviceability operations are decided one by one', () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  before(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a refused operation sends nothing and takes no slot of the node budget', async () => {
    const client = new ServiceabilityClient({ product: 'cucm' });
    const node = { host: '127.0.0.1', port, username: 'u', password: 'p' };
    const before = (await client.budget(PERFMON_API, node)).remaining;
    const call = narrowedCall(PERFMON_OPS.describe);
    await assert.rejects(
      runWithNodeRequests(call, () =>
        client.call(node, { api: PERFMON_API, operation: PERFMON_OPS.describe, fields: {} }),
      ),
      /does not allow SERVICEABILITY perfmonQueryCounterDescription/,
    );
    assert.equal(connections, 0);
    assert.equal((await client.budget(PERFMON_API, node)).remaining, before);
    assert.deepEqual(call.auditFields().node_requests, undefined);
  });

  it('a session whose close is refused is never opened', async () => {
    const sent: string[] = [];
    const send: Send = async (c) => {
      sent.push(c.operation);
      return {};
    };
    await assert.rejects(
      runWithNodeRequests(narrowedCall(PERFMON_OPS.close), () =>
        sampleTwice(send, ['\\\\n\\Processor(_Total)\\% CPU Time'], 1),
      ),
      ProfilePermissionError,
    );
    assert.deepEqual(sent, []);
  });
});
