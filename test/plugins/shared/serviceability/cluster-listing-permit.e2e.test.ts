// The cluster listing behind every "all nodes" serviceability read (AXL listProcessNode on CUCM and IM&P,
// CUPI GET /vmrest/cluster on Unity Connection) is a request of its own: the caller's allowlist decides
// it like any other. A client whose client.json denies it is refused with the coded permission error
// before anything is sent, and the refusal is on the call's outcome record; the shipped operator profile
// permits it (it denies only the process-node writes). Real MCP clients, the real kernel, the lab.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import { startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';
import { tempStateDir } from '../../../helpers/state-dir.ts';

describe('serviceability: the cluster listing is checked against the allowlist', () => {
  const state = tempStateDir('ucmcp-clusterrbac-');
  let s: ProductStack;
  before(async () => {
    mkdirSync(join(state.dir, 'clients', 'auditor1'), { recursive: true });
    writeFileSync(
      join(state.dir, 'clients', 'auditor1', 'client.json'),
      JSON.stringify({
        redirect_uris: [],
        allowlists: {
          axl: { deny: ['listProcessNode'] },
          cupi: { deny: [{ methods: ['GET'], path: '/vmrest/cluster' }] },
        },
        rateLimits: {},
      }),
    );
    s = await startProductStack({ stateDir: state.dir, prepare: ['cucm', 'cuc'] });
  });
  after(async () => {
    await s?.stop();
    state.cleanup();
  });

  for (const [product, service, operation] of [
    ['cucm', 'axl', 'listProcessNode'],
    ['cuc', 'cupi', 'GET /vmrest/cluster'],
  ] as const) {
    it(`${product}: all_nodes refused before anything is sent; one node still read`, async () => {
      const host = s.node(product).name;
      const mark = s.mark();
      const from = s.lab.state.log.requests.length;
      const r = await s.fails('auditor', `${product}_service_status`, { host, all_nodes: true });
      assert.equal(r.error, 'ProfilePermissionError', r.message);
      assert.deepEqual(s.lab.state.log.requests.slice(from), [], 'nothing sent');
      const outcome = actionOutcomes(s.auditSince(mark)).find(
        (a) => a.tool_name === `${product}_service_status`,
      );
      assert.equal(outcome?.result, 'DENIED');
      assert.deepEqual(outcome?.denied_requests, [{ service, operation }]);
      await s.ok('auditor', `${product}_service_status`, { host });
    });
  }

  it('the shipped operator profile lists the cluster', async () => {
    const r = await s.ok('operator', 'cucm_service_status', { host: s.node('cucm').name, all_nodes: true });
    assert.ok((r.nodes as unknown[]).length >= 1);
  });
});
