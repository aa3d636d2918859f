// <product>_service_status and <product>_service_control end to end: real MCP clients, the kernel and
// the lab's ControlCenterServices on each node (site scale). A service stopped through the API shows
// stopped on the node's CLI too (one service table in the lab), and every refusal is a coded error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';
import {
  labCredential,
  prepareNode,
  startProductStack,
  storeUnreachableNode,
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

describe('service status and control through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ lab: { scale: 'site' }, prepare: ['cucm'] });
    cucm = s.node('cucm');
    // A subscriber that is down: a credential for it, at an address where nothing answers.
    await storeUnreachableNode(s, cucm, 'cucm-sub1');
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

  it('stop then start: a stop needs the plan_id of its preview, admin only, audited first, the CLI shows the change', async () => {
    const tool = 'cucm_service_control';
    const args = { host: cucm.name, action: 'stop', services: ['Cisco Tftp'] };
    // A destructive change from a client that cannot be asked: nothing without a plan_id.
    const unconfirmed = await s.fails('admin', tool, args);
    assert.equal(unconfirmed.error, 'CONFIRMATION_REQUIRED');
    assert.match(unconfirmed.message, /dry_run: true/);
    for (const role of ['operator', 'auditor'] as const) {
      const refused = await s.fails(role, tool, { ...args, dry_run: true });
      assert.equal(refused.error, 'ProfilePermissionError', role);
    }
    const old = await s.fails('admin', tool, { ...args, confirm: true });
    assert.equal(old.error, 'BAD_REQUEST', 'confirm: true no longer exists');

    const planned = await s.plan('admin', tool, args);
    const mark = s.mark();
    const stopped = await s.ok('admin', tool, planned);
    const svc = (stopped.services as (Service & { changed: boolean })[])[0];
    assert.equal(svc?.status, 'Stopped');
    assert.equal(svc?.changed, true);
    assert.equal(typeof stopped.change_id, 'string');
    assert.equal((stopped.confirmed_by as { how: string }).how, 'plan');
    const records = s.auditSince(mark).filter((r) => r.tool_name === tool);
    assert.equal(
      records[0]?.operation,
      'soapDoControlServices',
      'the operation is recorded before the outcome',
    );
    assert.match(String(records[0]?.detail), /Stop Cisco Tftp/);
    const outcome = actionOutcomes(records)[0];
    assert.equal(outcome?.result, 'ALLOWED');
    assert.deepEqual(outcome?.confirmed_by, {
      how: 'plan',
      who: (stopped.confirmed_by as { who: string }).who,
      plan_id: planned.plan_id,
    });
    const reused = await s.fails('admin', tool, planned);
    assert.equal(reused.error, 'PLAN_USED');

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

    const again = await s.fails('admin', tool, await s.plan('admin', tool, args));
    assert.equal(again.error, 'SERVICEABILITY_ERROR');
    assert.match(again.message, /Component already stopped/);

    // A start is a change: the admin profile (writes: direct) needs no plan for it.
    const started = await s.ok('admin', tool, { ...args, action: 'start' });
    assert.equal((started.confirmed_by as { how: string }).how, 'direct');
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
    // Refused by the preview already: nothing to plan.
    const unknown = await s.fails('admin', 'cucm_service_control', {
      host: legacy.name,
      action: 'restart',
      services: ['Cisco Tftp', 'Cisco No Such Service'],
      dry_run: true,
    });
    assert.equal(unknown.error, 'NOT_FOUND');
    assert.match(unknown.message, /Cisco No Such Service/);
    const statusUnknown = await s.fails('auditor', 'cucm_service_status', {
      host: legacy.name,
      services: ['Cisco No Such Service'],
    });
    assert.equal(statusUnknown.error, 'NOT_FOUND');

    const network = await s.fails(
      'admin',
      'cucm_service_control',
      await s.plan('admin', 'cucm_service_control', {
        host: legacy.name,
        action: 'stop',
        services: ['Cisco Tomcat'],
      }),
    );
    assert.equal(network.error, 'SERVICEABILITY_ERROR');
    assert.match(network.message, /Operation not supported/);

    // Partly refused: what the node did is reported per service, nothing is an error.
    const partly = await s.ok(
      'admin',
      'cucm_service_control',
      await s.plan('admin', 'cucm_service_control', {
        host: legacy.name,
        action: 'stop',
        services: ['Cisco Tftp', 'Cisco Tomcat'],
      }),
    );
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
    });

    for (const bad of [
      { host: legacy.name, action: 'kill', services: ['Cisco Tftp'] },
      { host: legacy.name, action: 'stop', services: [] },
      { host: legacy.name, action: 'stop', services: ['x'.repeat(129)] },
    ]) {
      const r = await s.fails('admin', 'cucm_service_control', bad);
      assert.equal(r.error, 'BAD_REQUEST', JSON.stringify(bad).slice(0, 80));
    }
    const markup = await s.fails('admin', 'cucm_service_control', {
      host: legacy.name,
      action: 'stop',
      services: ['Cisco Tftp\u0001'],
      dry_run: true,
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
