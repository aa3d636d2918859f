// The security audits are read-only by construction: every evidence call of the three checklists,
// tool and arguments, classifies as `read` through the change table (classify.ts). A check added
// later whose evidence writes (an AXL update, a CUPI PUT, a `utils service` command, a write tool)
// fails here, before any lab run. The e2e proof that nothing else is sent is
// read-only-audit-*.e2e.test.ts (the audits with read-only credentials).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Checklist, EvidenceCall } from '../../../../plugins/_shared/audit/checklist.ts';
import { cliToolCommands } from '../../../../plugins/_shared/audit/cli-tool-evidence.ts';
import {
  classifyAxl,
  classifyCli,
  classifyCupi,
  classifyServiceControl,
  type Classification,
} from '../../../../plugins/_shared/changes/classify.ts';
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';
import type { RegisteredTool } from '../../../../kernel/plugins/registry.ts';
import { loadShippedPlugins } from '../../../helpers/shipped-plugins.ts';

const CHECKLISTS: readonly Checklist[] = [CUCM_CHECKLIST, IMP_CHECKLIST, CUC_CHECKLIST];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The class of one evidence call. The generic tools are classed by what they would send; any other
 * tool is read only when it declares itself read-only (readOnlyHint), and the CLI commands a CLI-parsed
 * tool types are classed too. Anything else (an unknown tool, a write tool) is not read.
 */
function evidenceClass(e: EvidenceCall, tools: ReadonlyMap<string, RegisteredTool>): Classification[] {
  const a = e.args;
  if (e.tool.endsWith('_axl_call'))
    return [classifyAxl(str(a.operation), (a.args ?? undefined) as Record<string, unknown> | undefined)];
  if (e.tool === 'cuc_cupi_call') return [classifyCupi(str(a.method) || 'GET', str(a.path))];
  if (e.tool.endsWith('_os_run_command')) return [classifyCli(str(a.command))];
  if (e.tool.endsWith('_service_control'))
    return [classifyServiceControl(str(a.action) as 'start' | 'stop' | 'restart')];
  const def = tools.get(e.tool)?.def;
  if (!def) return [{ class: 'destructive', rule: 'unknown tool', why: `${e.tool} is not a shipped tool` }];
  if (!def.annotations.readOnlyHint)
    return [{ class: 'destructive', rule: 'write tool', why: `${e.tool} is not declared read-only` }];
  return [
    { class: 'read', rule: 'read-only tool', why: `${e.tool} declares readOnlyHint` },
    ...cliToolCommands(e).map(classifyCli),
  ];
}

describe('the security audits gather evidence by reads only', () => {
  let tools: Map<string, RegisteredTool>;
  before(async () => {
    // Every registered tool, licensed or not: the definitions are what matter here.
    tools = new Map((await loadShippedPlugins()).tools);
  });

  for (const checklist of CHECKLISTS)
    it(`${checklist.prompt}: every evidence call classifies as read`, () => {
      const calls = checklist.checks.flatMap((c) => c.evidence.map((e) => ({ check: c.id, e })));
      assert.ok(calls.length > 10, 'the checklist has evidence calls');
      const writes = calls.flatMap(({ check, e }) =>
        evidenceClass(e, tools)
          .filter((c) => c.class !== 'read')
          .map((c) => `${check}/${e.id}: ${e.tool} is ${c.class} (${c.rule}: ${c.why})`),
      );
      assert.deepEqual(writes, []);
    });

  it('a check whose evidence writes is caught (the classification is not vacuous)', () => {
    const writing: EvidenceCall[] = [
      { id: 'a', tool: 'cucm_axl_call', args: { operation: 'updatePhone', args: {} }, purpose: '' },
      { id: 'b', tool: 'imp_axl_call', args: { operation: 'executeSQLUpdate', args: {} }, purpose: '' },
      { id: 'c', tool: 'cuc_cupi_call', args: { method: 'PUT', path: '/vmrest/users/x' }, purpose: '' },
      {
        id: 'd',
        tool: 'cuc_os_run_command',
        args: { command: 'utils service restart Cisco Tomcat' },
        purpose: '',
      },
      { id: 'e', tool: 'cucm_os_run_command', args: { command: 'show version active; set x' }, purpose: '' },
      { id: 'f', tool: 'cucm_service_control', args: { action: 'start' }, purpose: '' },
      { id: 'g', tool: 'cucm_trace_level', args: {}, purpose: '' },
      { id: 'h', tool: 'cucm_no_such_tool', args: {}, purpose: '' },
    ];
    const missed = writing.filter((e) => evidenceClass(e, tools).every((c) => c.class === 'read'));
    assert.deepEqual(
      missed.map((e) => e.id),
      [],
    );
  });
});
