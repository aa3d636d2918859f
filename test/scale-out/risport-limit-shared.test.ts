// Issue 24: the RisPort70 budget (15 requests a minute per CUCM cluster, whoever sends them) holds
// across instances under parallel load. Three clients fire 30 single-device queries at once through the
// round-robin balancer; the lab's CUCM counts the RisPort requests it actually received: at most 15,
// never one it had to refuse itself, and every call past the budget is refused by the server with the
// RIS rate-limit outcome (not a client profile's RATE_LIMITED: each client stays under its own 15).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Lab, LabNodeInfo } from '../../lab/index.ts';
import { labNode } from '../../lab/index.ts';
import { prefetchSchemas } from '../../lab/demo/prefetch-schemas.ts';
import { seedVault } from '../../lab/demo/seed-vault.ts';
import { startCluster, type Cluster } from '../helpers/cluster.ts';
import type { ModernClient } from '../helpers/mcp-client-v2.ts';
import { startTestLab } from '../lab/helpers.ts';
import { callTool, modernClient, scaleOutSkip } from './support.ts';

const skip = scaleOutSkip();
const CLIENTS = ['aud1', 'aud2', 'aud3'];
const CALLS_PER_CLIENT = 10;
const NODE_BUDGET = 15;

describe('scale-out: the RisPort70 budget is one budget across instances', { skip }, () => {
  let lab: Lab;
  let cucm: LabNodeInfo;
  let c: Cluster;
  const m: ModernClient[] = [];
  before(async () => {
    lab = await startTestLab({});
    cucm = labNode(lab.info, 'cucm');
    c = await startCluster({
      instances: 3,
      signed: true,
      env: {
        AUTH_CLIENTS: CLIENTS.map((n) => `${n}:auditor:cucm`).join(','),
        NODE_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
      },
      // As an operator would before the instances start: the lab's credentials in each client's vault
      // and the RIS schema in the (shared) schema cache.
      prepare: async (stateDir) => {
        await seedVault(stateDir, CLIENTS, lab.info);
        await prefetchSchemas(stateDir, lab.info);
      },
    });
    for (const n of CLIENTS) m.push(await modernClient(c, n));
  });
  after(async () => {
    for (const x of m) await x.close().catch(() => undefined);
    await c?.close();
    await lab?.stop();
  });

  it(`${CLIENTS.length * CALLS_PER_CLIENT} parallel queries: the node receives at most ${NODE_BUDGET}, the rest are refused by the server`, async () => {
    const from = lab.state.log.requests.length;
    c.balancer.reset();
    const outcomes = await Promise.all(
      m.flatMap((x) =>
        Array.from({ length: CALLS_PER_CLIENT }, () =>
          callTool(x, 'cucm_risport_query', { host: cucm.name, select_items: ['SEP0A1B2C3D4E01'] }),
        ),
      ),
    );
    const received = lab.state.log.requests.slice(from).filter((r) => r.service === 'ris');
    const perNode = new Map<string, number>();
    for (const r of received) perNode.set(r.node, (perNode.get(r.node) ?? 0) + 1);
    const answered = outcomes.filter((o) => o.ok && o.structured?.stopped_because === undefined);
    const refused = outcomes.filter((o) => !o.ok || o.structured?.stopped_because !== undefined);
    const why = new Map<string, number>();
    for (const o of refused) {
      const k = String(o.structured?.stopped_because ?? o.error);
      why.set(k, (why.get(k) ?? 0) + 1);
    }
    console.log(
      `node received ${JSON.stringify([...perNode])}; answered ${answered.length}, refused ${refused.length} ${JSON.stringify([...why])}; requests per instance ${c.balancer.counts.join('/')}`,
    );
    assert.ok(
      c.balancer.counts.every((n) => n > 0),
      `spread ${c.balancer.counts.join('/')}`,
    );
    for (const [node, n] of perNode) assert.ok(n <= NODE_BUDGET, `${node} received ${n} RisPort requests`);
    assert.equal(
      received.filter((r) => r.status >= 500).length,
      0,
      'the node never had to refuse a request itself',
    );
    assert.ok(answered.length > 0 && answered.length <= NODE_BUDGET, `${answered.length} answered`);
    for (const o of refused) {
      const what = `${o.error ?? ''} ${String(o.structured?.stopped_because ?? '')} ${o.message ?? ''}`;
      assert.notEqual(o.error, 'RATE_LIMITED', `a client profile limit, not the node budget: ${what}`);
      assert.ok(
        o.structured?.stopped_because === 'rate_limit' || /RIS/.test(o.error ?? ''),
        `refused for the RisPort budget: ${what}`,
      );
    }
  });
});
