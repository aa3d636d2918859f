// "Every node of the cluster" for the serviceability tools, end to end at the site scale: real MCP
// clients, the kernel and the lab, whose subscribers serve their own serviceability APIs. The cluster's
// nodes come from AXL listProcessNode with the stored AXL credential (no SSH login); each node is asked at
// its own address with the credential stored for it; a listed node without one is reported and nothing is
// sent to it; a node that does not answer is reported with ConnectivityError while the others answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../../lab/index.ts';
import { registeredPhones } from '../../../lab/helpers.ts';
import {
  labCredential,
  prepareNode,
  startProductStack,
  storeUnreachableNode,
  type ProductStack,
} from '../../../helpers/product-stack.ts';

interface Failed {
  node: string;
  error: { code: string; message: string };
}

describe('serviceability reads of every cluster node through MCP', () => {
  let s: ProductStack;
  let pub: LabNodeInfo;
  let sub: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ lab: { scale: 'site' }, prepare: ['cucm'] });
    pub = s.node('cucm');
    sub = pub.subscribers?.[0] as LabNodeInfo;
    assert.ok(sub, 'the site scale has a subscriber');
    await s.ok('admin', 'cucm_store_credentials', labCredential(s.lab, sub, 'axl'));
    // Two more nodes in the cluster's processnode table, as an administrator adds them: one the caller
    // has no credential for, one whose credential points where nothing answers.
    const db = s.lab.state.cucm.db;
    db.insert('processnode', {
      name: 'cucm-sub8',
      description: 'CUCM subscriber',
      tknodeusage: '1',
      nodeid: '98',
    });
    db.insert('processnode', {
      name: 'cucm-sub9',
      description: 'CUCM subscriber',
      tknodeusage: '1',
      nodeid: '99',
    });
    await storeUnreachableNode(s, sub, 'cucm-sub9');
  });
  after(async () => {
    await s?.stop();
  });

  const sshCommands = (): number => s.lab.state.log.commands.length;

  it('service status: every node at its own address, the unreached ones listed with their codes', async () => {
    // A service stopped on the subscriber shows there only.
    const stop = { host: sub.name, action: 'stop', services: ['Cisco Tftp'] };
    await s.ok('admin', 'cucm_service_control', await s.plan('admin', 'cucm_service_control', stop));
    const commands = sshCommands();
    const from = s.lab.state.log.requests.length;
    const r = await s.ok('admin', 'cucm_service_status', {
      host: pub.name,
      all_nodes: true,
      services: ['Cisco Tftp'],
    });
    assert.equal(sshCommands(), commands, 'no SSH login to list the nodes');
    const nodes = r.nodes as { node: string; services: { name: string; status: string }[] }[];
    assert.deepEqual(
      nodes.map((n) => [n.node, n.services[0]?.status]),
      [
        [pub.name, 'Started'],
        [sub.name, 'Stopped'],
      ],
    );
    const failed = Object.fromEntries((r.failed as Failed[]).map((f) => [f.node, f.error.code]));
    assert.deepEqual(failed, { 'cucm-sub8': 'CredentialError', 'cucm-sub9': 'ConnectivityError' });
    assert.equal(r.complete, false);
    // The nodes were listed by AXL listProcessNode on the publisher; each status came from its own node.
    const sent = s.lab.state.log.requests.slice(from);
    assert.ok(
      sent.some((q) => q.node === pub.name && q.service === 'axl' && q.operation === 'listProcessNode'),
    );
    const statusFrom = sent
      .filter((q) => q.operation === 'ControlCenterServices.soapGetServiceStatus')
      .map((q) => q.node);
    assert.deepEqual(statusFrom, [pub.name, sub.name]);
    // The IM&P node in the CUCM table is not a CUCM node: not listed.
    assert.ok(!nodes.some((n) => n.node === 'imp-pub') && !('imp-pub' in failed));
    await s.ok('admin', 'cucm_service_control', {
      host: sub.name,
      action: 'start',
      services: ['Cisco Tftp'],
    });
  });

  it('perfmon query: each node’s own counters, with the same unreached nodes', async () => {
    const from = s.lab.state.log.requests.length;
    const r = await s.ok('auditor', 'cucm_perfmon_query', {
      host: pub.name,
      object: 'Cisco CallManager',
      counters: ['RegisteredHardwarePhones'],
      all_nodes: true,
    });
    const expected = (node: string): number => registeredPhones(s.lab, node);
    const nodes = r.nodes as {
      node: string;
      values: { counter: string; value: number }[];
      error?: { code: string };
    }[];
    // The auditor's seeded vault has no subscriber credential: only the publisher is read.
    assert.equal(nodes[0]?.node, pub.name);
    assert.equal(nodes[0]?.values[0]?.value, expected(pub.name));
    const notRead = Object.fromEntries(nodes.slice(1).map((n) => [n.node, n.error?.code]));
    assert.deepEqual(notRead, {
      [sub.name]: 'CredentialError',
      'cucm-sub8': 'CredentialError',
      'cucm-sub9': 'CredentialError',
    });
    assert.ok(
      !s.lab.state.log.requests.slice(from).some((q) => q.node !== pub.name),
      'nothing sent to a node without a credential',
    );

    const admin = await s.ok('admin', 'cucm_perfmon_query', {
      host: pub.name,
      object: 'Cisco CallManager',
      counters: ['RegisteredHardwarePhones'],
      all_nodes: true,
    });
    const read = admin.nodes as typeof nodes;
    assert.deepEqual(
      read.map((n) => [n.node, n.values[0]?.value ?? n.error?.code]),
      [
        [pub.name, expected(pub.name)],
        [sub.name, expected(sub.name)],
        ['cucm-sub9', 'ConnectivityError'],
        ['cucm-sub8', 'CredentialError'],
      ],
    );
    assert.ok(expected(sub.name) > 0, 'the subscriber has registrations');
    const subRead = s.lab.state.log.requests
      .slice(from)
      .filter((q) => q.operation === 'PerfmonService.perfmonCollectCounterData' && q.node === sub.name);
    assert.equal(subRead.length, 1, 'the subscriber was asked at its own address');

    const both = await s.fails('auditor', 'cucm_perfmon_query', {
      host: pub.name,
      object: 'Cisco CallManager',
      all_nodes: true,
      nodes: [sub.name],
    });
    assert.equal(both.error, 'BAD_REQUEST');
  });

  it('IM&P lists its own nodes (not the CUCM publisher in its table)', async () => {
    const imp = await prepareNode(s, 'imp');
    const impSub = imp.subscribers?.[0] as LabNodeInfo;
    await s.ok('admin', 'imp_store_credentials', labCredential(s.lab, impSub, 'axl'));
    const r = await s.ok('admin', 'imp_service_status', {
      host: imp.name,
      all_nodes: true,
      services: ['Cisco Presence Engine'],
    });
    assert.deepEqual(
      (r.nodes as { node: string }[]).map((n) => n.node),
      [imp.name, impSub.name],
    );
    assert.deepEqual(r.failed, []);
  });

  it('Unity Connection lists its servers over CUPI (GET /vmrest/cluster), not over SSH', async () => {
    const cuc = await prepareNode(s, 'cuc');
    const commands = sshCommands();
    const from = s.lab.state.log.requests.length;
    const r = await s.ok('admin', 'cuc_service_status', {
      host: cuc.name,
      all_nodes: true,
      services: ['Connection Conversation Manager'],
    });
    assert.equal(sshCommands(), commands);
    assert.deepEqual(
      (r.nodes as { node: string }[]).map((n) => n.node),
      [cuc.name],
    );
    // The site scale's secondary server is listed too; this vault has no credential for it (both servers
    // answering: test/plugins/cuc/cluster-pair.e2e.test.ts).
    assert.deepEqual(
      (r.failed as Failed[]).map((f) => [f.node, f.error.code]),
      [[cuc.subscribers?.[0]?.name, 'CredentialError']],
    );
    assert.ok(
      s.lab.state.log.requests
        .slice(from)
        .some((q) => q.service === 'cupi' && q.method === 'GET' && q.path.startsWith('/vmrest/cluster')),
    );
  });
});
