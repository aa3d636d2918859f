import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConnectivityError, RISError } from '../../../../kernel/sdk/index.ts';
import type { RisQuery } from '../../../../plugins/cucm/ris/ris-service.ts';
import { startRisLab } from './helpers.ts';
import type { RisLab } from './helpers.ts';

const QUERY: RisQuery = { operation: 'selectCmDevice' };

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('RisPort70 failures', () => {
  let r: RisLab;
  before(async () => {
    r = await startRisLab({ risRateLimitPerMinute: 1000 });
    await r.ready();
  });
  after(() => r.stop());

  it('a wrong login is a RISError saying authentication failed', async () => {
    const ris = r.service();
    await assert.rejects(
      ris.queryEndpoint({ ...r.node, password: 'not-it' }, QUERY, { owner: 'alice' }),
      (err: unknown) => {
        assert.ok(err instanceof RISError);
        assert.match(err.message, /authentication to RisPort70 on 127\.0\.0\.1:\d+ failed \(HTTP 401\)/);
        return true;
      },
    );
    assert.equal(r.lab.state.log.requests.at(-1)?.status, 401);
  });

  it('an unreachable node is a ConnectivityError after the bounded retries', async () => {
    const ris = r.service();
    const node = { ...r.node, port: await closedPort() };
    await assert.rejects(ris.queryEndpoint(node, QUERY, { owner: 'alice' }), (err: unknown) => {
      assert.ok(err instanceof ConnectivityError);
      assert.match(err.message, /unreachable after 3 attempts \(ECONNREFUSED/);
      return true;
    });
    await assert.rejects(ris.probeEndpoint(node), ConnectivityError);
    await assert.rejects(ris.downloadFrom(node), ConnectivityError);
  });

  it('an unverifiable certificate is a ConnectivityError, never accepted', async () => {
    const ris = r.service();
    const { caCertPem: _ca, certPem: _cert, ...unpinned } = r.node;
    await assert.rejects(ris.queryEndpoint(unpinned, QUERY, { owner: 'alice' }), (err: unknown) => {
      assert.ok(err instanceof ConnectivityError);
      assert.match(err.message, /TLS verification of 127\.0\.0\.1:\d+ failed/);
      return true;
    });
  });

  it('an answer over the size cap is refused with a RISError, not read on', async () => {
    const ris = r.service({ maxAnswerBytes: 8 * 1024 });
    await assert.rejects(ris.queryEndpoint(r.node, QUERY, { owner: 'alice' }), (err: unknown) => {
      assert.ok(err instanceof RISError);
      assert.match(
        err.message,
        /sent more than 8192 bytes for an answer \(ask fewer devices per request\); refused/,
      );
      return true;
    });
  });
});
