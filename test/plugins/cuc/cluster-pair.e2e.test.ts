// Unity Connection as the active/active pair it is at the site scale: the publisher and its secondary
// server, both listed by CUPI GET /vmrest/cluster, each serving its own serviceability APIs with its own
// service table. Real MCP clients, the kernel and the lab: the cluster forms of cuc_service_status and
// cuc_perfmon_query reach both servers at their own addresses and show each one's own answers, and a
// secondary that does not answer is reported with its code while the publisher still answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import {
  labCredential,
  prepareNode,
  startProductStack,
  storeUnreachableNode,
  type ProductStack,
} from '../../helpers/product-stack.ts';

interface StatusNode {
  node: string;
  services: { name: string; status: string }[];
}
interface PerfmonNode {
  node: string;
  values: { counter: string; value: number }[];
  error?: { code: string };
}
interface Failed {
  node: string;
  error: { code: string };
}

/** Served only by the server with Primary status (lab/vos/subscriber.ts PRIMARY_ONLY). */
const NOTIFIER = 'Connection Notifier';
const CONVERSATION = 'Connection Conversation Manager';

describe('the Unity Connection pair through MCP', () => {
  let s: ProductStack;
  let pub: LabNodeInfo;
  let sec: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ lab: { scale: 'site' } });
    pub = await prepareNode(s, 'cuc');
    sec = pub.subscribers?.[0] as LabNodeInfo;
    assert.ok(sec, 'the site scale has a Connection secondary server');
    assert.equal(sec.product, 'cuc');
    assert.notEqual(sec.ports.https, pub.ports.https, 'its own HTTPS listener');
    await s.ok('admin', 'cuc_store_credentials', labCredential(s.lab, sec, 'cupi'));
  });
  after(async () => {
    await s?.stop();
  });

  const requestsSince = (from: number) => s.lab.state.log.requests.slice(from);
  /** A stop is destructive: previewed, then sent with its plan_id; a start goes ahead directly (admin). */
  const conversationOnSecondary = async (action: 'stop' | 'start') => {
    const args = { host: sec.name, action, services: [CONVERSATION] };
    return s.ok(
      'admin',
      'cuc_service_control',
      action === 'stop' ? await s.plan('admin', 'cuc_service_control', args) : args,
    );
  };
  /** Each server's `Total Processes`, read through the cluster form. */
  const perfmonNodes = async (): Promise<PerfmonNode[]> =>
    (
      await s.ok('admin', 'cuc_perfmon_query', {
        host: pub.name,
        object: 'System',
        counters: ['Total Processes'],
        all_nodes: true,
      })
    ).nodes as PerfmonNode[];
  const processes = async (): Promise<Map<string, number>> => {
    const nodes = await perfmonNodes();
    assert.ok(
      nodes.every((n) => !n.error),
      JSON.stringify(nodes),
    );
    return new Map(nodes.map((n) => [n.node, n.values[0]?.value as number]));
  };

  it('/vmrest/cluster lists both servers, and each answers its own service status', async () => {
    const commands = s.lab.state.log.commands.length;
    await conversationOnSecondary('stop');
    const from = s.lab.state.log.requests.length;
    const r = await s.ok('admin', 'cuc_service_status', {
      host: pub.name,
      all_nodes: true,
      services: [CONVERSATION, NOTIFIER],
    });
    assert.deepEqual(
      (r.nodes as StatusNode[]).map((n) => [n.node, n.services.map((x) => `${x.name}: ${x.status}`)]),
      [
        [pub.name, [`${CONVERSATION}: Started`, `${NOTIFIER}: Started`]],
        // Stopped there only: by the call above, and the Notifier as a secondary server runs it.
        [sec.name, [`${CONVERSATION}: Stopped`, `${NOTIFIER}: Stopped`]],
      ],
    );
    assert.deepEqual(r.failed, []);
    assert.equal(r.complete, true);
    const sent = requestsSince(from);
    assert.ok(
      sent.some((q) => q.node === pub.name && q.service === 'cupi' && q.path.startsWith('/vmrest/cluster')),
      'the servers were listed over CUPI',
    );
    assert.deepEqual(
      sent.filter((q) => q.operation === 'ControlCenterServices.soapGetServiceStatus').map((q) => q.node),
      [pub.name, sec.name],
      'each server asked at its own address',
    );
    assert.equal(s.lab.state.log.commands.length, commands, 'no SSH login');
    await conversationOnSecondary('start');
  });

  it("each server's PerfMon counts its own processes: a service stopped on the secondary shows there only", async () => {
    const before = await processes();
    assert.deepEqual([...before.keys()], [pub.name, sec.name]);
    await conversationOnSecondary('stop');
    const from = s.lab.state.log.requests.length;
    const after = await processes();
    assert.equal(after.get(pub.name), before.get(pub.name));
    assert.equal(after.get(sec.name), (before.get(sec.name) as number) - 1);
    assert.deepEqual(
      requestsSince(from)
        .filter((q) => q.operation === 'PerfmonService.perfmonCollectCounterData')
        .map((q) => q.node),
      [pub.name, sec.name],
    );
    await conversationOnSecondary('start');
  });

  it("the publisher's CLI lists both servers (show network cluster)", async () => {
    const cli = await s.ok('admin', 'cuc_os_run_command', {
      host: pub.name,
      command: 'show network cluster',
    });
    assert.match(String(cli.output), /10\.10\.20\.8 +cuc-pub/);
    assert.match(String(cli.output), /10\.10\.20\.9 +cuc-sub/);
  });

  it('a secondary that does not answer: its coded error, and the publisher still answers', async () => {
    await s.ok('admin', 'cuc_delete_credentials', { host: sec.name });
    await storeUnreachableNode(s, sec, sec.name);
    const status = await s.ok('admin', 'cuc_service_status', {
      host: pub.name,
      all_nodes: true,
      services: [CONVERSATION],
    });
    assert.deepEqual(
      (status.nodes as StatusNode[]).map((n) => [n.node, n.services[0]?.status]),
      [[pub.name, 'Started']],
    );
    assert.deepEqual(
      (status.failed as Failed[]).map((f) => [f.node, f.error.code]),
      [[sec.name, 'ConnectivityError']],
    );
    assert.equal(status.complete, false);

    const nodes = await perfmonNodes();
    assert.equal(nodes[0]?.node, pub.name);
    assert.ok((nodes[0]?.values[0]?.value ?? 0) > 0);
    assert.deepEqual(
      nodes.slice(1).map((n) => [n.node, n.error?.code]),
      [[sec.name, 'ConnectivityError']],
    );
  });
});
