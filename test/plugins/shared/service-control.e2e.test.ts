// <product>_service_status and <product>_service_control end to end: real MCP clients, the kernel and
// the lab's ControlCenterServices on each node (site scale). A service stopped through the API shows
// stopped on the node's CLI too (one service table in the lab), and every refusal is a coded error.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';
import {
  labCredential,
  prepareNode,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';

interface Service {
  name: string;
  status: string;
  reason: string | null;
  reason_code: number | null;
  uptime_seconds: number | null;
  deployable?: boolean;
}
interface NodeAnswer {
  node: string;
  services: Service[];
  unknown_services: string[];
  counts: { started: number; stopped: number; other: number };
}

/** A loopback port nothing listens on: a node that is down. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('service status and control through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ lab: { scale: 'site' } });
    cucm = await prepareNode(s, 'cucm');
    // A subscriber that is down: a credential for it, at an address where nothing answers.
    await s.ok('admin', 'cucm_store_credentials', {
      ...labCredential(s.lab, cucm, 'axl'),
      host: 'cucm-sub1',
      address: `127.0.0.1:${await deadPort()}`,
    });
  });
  after(async () => {
    await s.stop();
  });

  it('reads one node; with the other nodes, a dead one is listed in failed while the rest answer', async () => {
    const one = await s.ok('auditor', 'cucm_service_status', { host: cucm.name });
    const nodes = one.nodes as NodeAnswer[];
    assert.equal(nodes.length, 1);
    const tftp = nodes[0]?.services.find((x) => x.name === 'Cisco Tftp');
    assert.equal(tftp?.status, 'Started');
    assert.ok((tftp?.uptime_seconds ?? 0) > 86_400, 'up since the node booted days ago');
    const ctl = nodes[0]?.services.find((x) => x.name === 'Cisco CTL Provider');
    assert.equal(ctl?.status, 'Stopped');
    assert.equal(ctl?.reason, 'Service Not Activated');
    assert.equal(one.complete, true);

    const all = await s.ok('admin', 'cucm_service_status', {
      host: cucm.name,
      nodes: ['cucm-sub1'],
      services: ['Cisco CallManager', 'Cisco Tftp'],
      with_specifications: true,
    });
    assert.equal(all.complete, false);
    const answered = all.nodes as NodeAnswer[];
    assert.deepEqual(
      answered.map((n) => n.node),
      [cucm.name],
    );
    assert.deepEqual(answered[0]?.services.map((x) => [x.name, x.deployable]).sort(), [
      ['Cisco CallManager', true],
      ['Cisco Tftp', true],
    ]);
    const failed = all.failed as { node: string; error: { code: string; message: string } }[];
    assert.equal(failed[0]?.node, 'cucm-sub1');
    assert.equal(failed[0]?.error.code, 'ConnectivityError');

    // The dead node alone: the call itself fails with that code.
    const dead = await s.fails('admin', 'cucm_service_status', { host: 'cucm-sub1' });
    assert.equal(dead.error, 'ConnectivityError');
    // Every CallManager node the publisher lists (AXL listProcessNode; the IM&P node in its table is not
    // one): the dead subscriber fails.
    const cluster = await s.ok('admin', 'cucm_service_status', {
      host: cucm.name,
      all_nodes: true,
      services: ['Cisco Tftp'],
    });
    assert.deepEqual(
      (cluster.nodes as NodeAnswer[]).map((n) => n.node),
      [cucm.name],
    );
    const notRead = Object.fromEntries(
      (cluster.failed as { node: string; error: { code: string } }[]).map((f) => [f.node, f.error.code]),
    );
    assert.deepEqual(notRead, { 'cucm-sub1': 'ConnectivityError' });
    // A caller without a credential for a node: that node is reported, nothing is sent to it.
    const operator = await s.ok('operator', 'cucm_service_status', {
      host: cucm.name,
      nodes: ['cucm-sub1'],
      services: ['Cisco Tftp'],
    });
    const missing = operator.failed as { node: string; error: { code: string } }[];
    assert.equal(missing.length, 1);
    assert.equal(missing[0]?.node, 'cucm-sub1');
    assert.equal(missing[0]?.error.code, 'CredentialError');
  });

  it('IM&P and Unity Connection answer for their own services', async () => {
    await prepareNode(s, 'imp');
    await prepareNode(s, 'cuc');
    const imp = await s.ok('auditor', 'imp_service_status', {
      host: s.node('imp').name,
      services: ['Cisco Presence Engine'],
    });
    assert.equal((imp.nodes as NodeAnswer[])[0]?.services[0]?.status, 'Started');
    const cuc = await s.ok('auditor', 'cuc_service_status', {
      host: s.node('cuc').name,
      services: ['Connection Conversation Manager'],
    });
    assert.equal((cuc.nodes as NodeAnswer[])[0]?.services[0]?.status, 'Started');
  });

  it('stop then start: confirmation required, admin only, audited first, the CLI shows the change', async () => {
    const args = { host: cucm.name, action: 'stop', services: ['Cisco Tftp'] };
    const unconfirmed = await s.fails('admin', 'cucm_service_control', args);
    assert.equal(unconfirmed.error, 'BAD_REQUEST');
    assert.match(unconfirmed.message, /confirm: true/);
    for (const role of ['operator', 'auditor'] as const) {
      const refused = await s.fails(role, 'cucm_service_control', { ...args, confirm: true });
      assert.equal(refused.error, 'ProfilePermissionError', role);
    }

    const mark = s.mark();
    const stopped = await s.ok('admin', 'cucm_service_control', { ...args, confirm: true });
    const svc = (stopped.services as (Service & { changed: boolean })[])[0];
    assert.equal(svc?.status, 'Stopped');
    assert.equal(svc?.changed, true);
    const records = s.auditSince(mark).filter((r) => r.tool_name === 'cucm_service_control');
    assert.equal(
      records[0]?.operation,
      'soapDoControlServices',
      'the operation is recorded before the outcome',
    );
    assert.match(String(records[0]?.detail), /Stop Cisco Tftp/);
    assert.equal(actionOutcomes(records)[0]?.result, 'ALLOWED');

    const cli = await s.ok('admin', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'utils service list',
    });
    assert.match(String(cli.output), /Cisco Tftp\[STOPPED\] Commanded Out of Service/);
    const status = await s.ok('auditor', 'cucm_service_status', {
      host: cucm.name,
      state: 'not_started',
    });
    const listed = (status.nodes as NodeAnswer[])[0]?.services.find((x) => x.name === 'Cisco Tftp');
    assert.equal(listed?.reason, 'Commanded Out of Service');

    const again = await s.fails('admin', 'cucm_service_control', { ...args, confirm: true });
    assert.equal(again.error, 'SERVICEABILITY_ERROR');
    assert.match(again.message, /Component already stopped/);

    const started = await s.ok('admin', 'cucm_service_control', {
      ...args,
      action: 'start',
      confirm: true,
    });
    assert.equal((started.services as Service[])[0]?.status, 'Started');
    const after = await s.ok('admin', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'utils service list',
    });
    assert.match(String(after.output), /Cisco Tftp\[STARTED\]/);
  });

  it('refuses an unknown service, a network service and bad input with coded errors, changing nothing', async () => {
    // The 14.0 cluster's publisher: its own ControlCenterServices budget (cucm-pub's is spent above).
    const legacy = s.node('cucm', 'cucm14-pub');
    await s.ok('admin', 'cucm_store_credentials', labCredential(s.lab, legacy, 'axl'));
    const unknown = await s.fails('admin', 'cucm_service_control', {
      host: legacy.name,
      action: 'restart',
      services: ['Cisco Tftp', 'Cisco No Such Service'],
      confirm: true,
    });
    assert.equal(unknown.error, 'NOT_FOUND');
    assert.match(unknown.message, /Cisco No Such Service/);
    const statusUnknown = await s.fails('auditor', 'cucm_service_status', {
      host: legacy.name,
      services: ['Cisco No Such Service'],
    });
    assert.equal(statusUnknown.error, 'NOT_FOUND');

    const network = await s.fails('admin', 'cucm_service_control', {
      host: legacy.name,
      action: 'stop',
      services: ['Cisco Tomcat'],
      confirm: true,
    });
    assert.equal(network.error, 'SERVICEABILITY_ERROR');
    assert.match(network.message, /Operation not supported/);

    // Partly refused: what the node did is reported per service, nothing is an error.
    const partly = await s.ok('admin', 'cucm_service_control', {
      host: legacy.name,
      action: 'stop',
      services: ['Cisco Tftp', 'Cisco Tomcat'],
      confirm: true,
    });
    assert.deepEqual(
      (partly.services as (Service & { changed: boolean })[]).map((x) => [x.name, x.status, x.changed]),
      [
        ['Cisco Tftp', 'Stopped', true],
        ['Cisco Tomcat', 'Started', false],
      ],
    );
    await s.ok('admin', 'cucm_service_control', {
      host: legacy.name,
      action: 'start',
      services: ['Cisco Tftp'],
      confirm: true,
    });

    for (const bad of [
      { host: legacy.name, action: 'kill', services: ['Cisco Tftp'], confirm: true },
      { host: legacy.name, action: 'stop', services: [], confirm: true },
      { host: legacy.name, action: 'stop', services: ['x'.repeat(129)], confirm: true },
    ]) {
      const r = await s.fails('admin', 'cucm_service_control', bad);
      assert.equal(r.error, 'BAD_REQUEST', JSON.stringify(bad).slice(0, 80));
    }
    const markup = await s.fails('admin', 'cucm_service_control', {
      host: legacy.name,
      action: 'stop',
      services: ['Cisco Tftp\u0001'],
      confirm: true,
    });
    assert.equal(markup.error, 'BAD_REQUEST');
    const tftp = await s.ok('auditor', 'cucm_service_status', {
      host: legacy.name,
      services: ['Cisco Tftp', 'Cisco Tomcat'],
    });
    for (const x of (tftp.nodes as NodeAnswer[])[0]?.services ?? [])
      assert.equal(x.status, 'Started', x.name);
  });

  it('each node allows 15 Control Center requests a minute; past them the call says when to retry', async () => {
    const cuc = s.node('cuc');
    let refused: { error: string; message: string } | undefined;
    for (let i = 0; i < 16 && !refused; i++) {
      const r = await s.mcp.auditor.call('cuc_service_status', {
        host: cuc.name,
        services: ['Cisco Tomcat'],
      });
      if (r.isError) refused = r.structuredContent as { error: string; message: string };
    }
    assert.ok(refused, 'the budget ran out within 16 calls');
    assert.equal(refused.error, 'SERVICEABILITY_ERROR');
    assert.match(refused.message, /15 requests per minute/);
    assert.ok(Number((refused as Record<string, unknown>).retry_after_s) > 0);
  });
});
