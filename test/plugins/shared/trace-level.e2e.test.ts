// <product>_trace_level end to end: real MCP clients, the kernel and the lab's VOS CLI over SSH. Reads
// list the tasks and one task's state per node; the admin sets a level with confirm and the node's own
// state changes; every refusal (profile, confirm, unknown task, bad level or name) sends nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';
import { prepareNode, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

interface NodeAnswer {
  node: string;
  tasks?: string[];
  task?: string;
  enabled?: boolean | null;
  level?: string | null;
  changed?: boolean;
  recognised: boolean;
}

describe('trace levels through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack();
    cucm = await prepareNode(s, 'cucm');
  });
  after(async () => {
    await s?.stop();
  });

  const sent = (): number => s.lab.state.log.commands.length;
  /** The trace commands typed since `from` (a new shell also sets its pagination first). */
  const typed = (from: number): string[] =>
    s.lab.state.log.commands
      .slice(from)
      .map((c) => c.command)
      .filter((c) => c.includes('trace'));

  it('lists the tasks, reads one per node, and reports a node without a credential in failed', async () => {
    const list = await s.ok('auditor', 'cucm_trace_level', { host: cucm.name });
    const [n] = list.nodes as NodeAnswer[];
    assert.deepEqual(n?.tasks, ['cdps', 'cdpmib']);
    const one = await s.ok('auditor', 'cucm_trace_level', {
      host: cucm.name,
      task: 'cdps',
      nodes: ['cucm-nowhere'],
    });
    assert.deepEqual(one.nodes, [
      { node: cucm.name, task: 'cdps', enabled: true, level: 'Error', recognised: true },
    ]);
    assert.equal(one.complete, false);
    const [f] = one.failed as { node: string; error: { code: string } }[];
    assert.equal(f?.node, 'cucm-nowhere');
    assert.equal(f?.error.code, 'CredentialError');
  });

  it('the admin sets a level with confirm: the node changes and the answer reads it back', async () => {
    const mark = s.mark();
    const from = sent();
    const r = await s.ok('admin', 'cucm_trace_level', {
      host: cucm.name,
      task: 'cdpmib',
      level: 'Detailed',
      confirm: true,
    });
    assert.deepEqual(r.nodes, [
      { node: cucm.name, task: 'cdpmib', enabled: true, level: 'Detailed', recognised: true, changed: true },
    ]);
    assert.equal(r.level_set, 'Detailed');
    assert.deepEqual(s.lab.state.cucm.os.traces.cdpmib, { enabled: true, level: 'Detailed' });
    assert.deepEqual(typed(from), [
      'show trace',
      'show trace cdpmib',
      'set trace enable Detailed cdpmib',
      'show trace cdpmib',
    ]);
    // Every change on a node is journalled, with the task's state before and after.
    const history = await s.ok('admin', 'cucm_change_history', { host: cucm.name });
    const [change] = history.changes as Record<string, unknown>[];
    assert.equal(change?.operation, 'set trace enable Detailed cdpmib');
    assert.deepEqual(change?.before, { enabled: true, level: 'Error' });
    assert.deepEqual(change?.after, { enabled: true, level: 'Detailed' });
    assert.deepEqual(change?.object, { type: 'trace task', name: 'cdpmib' });
    assert.equal(change?.outcome, 'applied');
    const [action] = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === 'cucm_trace_level');
    assert.equal(action?.operation, 'set trace enable Detailed cdpmib');
    assert.equal(action?.result, 'ALLOWED');

    const off = await s.ok('admin', 'cucm_trace_level', {
      host: cucm.name,
      task: 'cdpmib',
      level: 'disabled',
      confirm: true,
    });
    assert.equal((off.nodes as NodeAnswer[])[0]?.enabled, false);
    assert.equal(s.lab.state.cucm.os.traces.cdpmib?.enabled, false);
  });

  it('refuses with coded errors and sends nothing: profile, confirm, unknown task, bad level or name', async () => {
    const writes = s.lab.state.log.writes.length;
    let from = sent();
    const op = await s.fails('operator', 'cucm_trace_level', {
      host: cucm.name,
      task: 'cdps',
      level: 'Detailed',
      confirm: true,
    });
    assert.equal(op.error, 'ProfilePermissionError');
    const unconfirmed = await s.fails('admin', 'cucm_trace_level', {
      host: cucm.name,
      task: 'cdps',
      level: 'Detailed',
    });
    assert.equal(unconfirmed.error, 'BAD_REQUEST');
    assert.match(unconfirmed.message, /confirm: true/);
    for (const args of [
      { task: 'cdps', level: 'Verbose', confirm: true },
      { task: 'cdps; utils system restart', level: 'Error', confirm: true },
      { task: 'cdps extra' },
      { level: 'Error', confirm: true },
    ]) {
      const bad = await s.fails('admin', 'cucm_trace_level', { host: cucm.name, ...args });
      assert.equal(bad.error, 'BAD_REQUEST', JSON.stringify(args));
    }
    assert.equal(sent(), from, 'nothing was typed');

    from = sent();
    const unknown = await s.fails('admin', 'cucm_trace_level', {
      host: cucm.name,
      task: 'nosuchtask',
      level: 'Detailed',
      confirm: true,
    });
    assert.equal(unknown.error, 'NOT_FOUND');
    assert.match(
      unknown.message,
      /no trace task named nosuchtask; nothing was changed\. Tasks: cdps, cdpmib/,
    );
    assert.deepEqual(typed(from), ['show trace']);
    assert.equal(s.lab.state.log.writes.length, writes, 'nothing changed');
  });

  it('the IM and Presence and Unity Connection twins read their own nodes', async () => {
    for (const product of ['imp', 'cuc'] as const) {
      const node = s.node(product);
      const r = await s.ok('auditor', `${product}_trace_level`, { host: node.name, task: 'cdps' });
      assert.deepEqual(
        (r.nodes as NodeAnswer[]).map((n) => [n.node, n.level]),
        [[node.name, 'Error']],
      );
    }
  });
});
