// The SNMP community string the lab seeds is a credential: an auditor's real MCP client runs the
// command that lists it, and the string appears nowhere the server puts anything (the tool result,
// its audit records, its logs, any file of its state directory), while CUCM-SNMP-01 still finds it,
// alone, from the redacted output; and passes once the community is gone.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LAB_SNMP_COMMUNITY } from '../../../../lab/vos/node-hardening.ts';
import { runChecklist } from '../../../../plugins/_shared/audit/run-checklist.ts';
import { SECRET_MARKER } from '../../../../plugins/_shared/vos/secret-output.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { auditStack, mcpCaller } from '../../../helpers/audit-run.ts';
import type { ProductStack } from '../../../helpers/product-stack.ts';

const COMMAND = 'utils snmp config 1/2c community-string list';
const SNMP_01 = CUCM_CHECKLIST.checks.filter((c) => c.id === 'CUCM-SNMP-01');

/** Every file under the state directory whose bytes contain the text (the vault is encrypted anyway). */
function filesHolding(dir: string, text: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) hits.push(...filesHolding(path, text));
    else if (readFileSync(path).includes(text)) hits.push(path);
  }
  return hits;
}

describe('an SNMP community string never leaves the server', () => {
  let s: ProductStack;
  before(async () => {
    s = await auditStack('cucm', { weaknesses: ['cucm-snmp-community'] });
  });
  after(() => s?.stop());

  it('is redacted from the tool result, line for line', async () => {
    const host = s.node('cucm').name;
    const r = await s.mcp.auditor.call('cucm_os_run_command', { host, command: COMMAND });
    assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
    const output = String((r.structuredContent as { output: string }).output);
    assert.match(output, new RegExp(`^Community String = ${SECRET_MARKER}$`, 'm'));
    assert.match(output, /^Access Privileges = ReadOnly$/m);
    assert.ok(!JSON.stringify(r).includes(LAB_SNMP_COMMUNITY), 'the community string is in the result');
    // Typed another way, the same command is still recognised.
    const shouted = await s.mcp.admin.call('cucm_os_run_command', {
      host,
      command: 'UTILS SNMP config 1/2c community-string LIST',
    });
    assert.ok(!JSON.stringify(shouted).includes(LAB_SNMP_COMMUNITY), JSON.stringify(shouted));
  });

  it('still lets CUCM-SNMP-01 find it, and it alone, in the whole checklist', async () => {
    const run = await runChecklist(CUCM_CHECKLIST, s.node('cucm').name, mcpCaller(s.mcp.auditor));
    assert.deepEqual(run.unjudged, []);
    assert.deepEqual(
      run.findings.map((f) => f.check),
      ['CUCM-SNMP-01'],
    );
    assert.match(run.findings[0]?.detail ?? '', /^1 SNMP v1\/v2c community string/);
    assert.ok(!JSON.stringify(run).includes(LAB_SNMP_COMMUNITY));
  });

  it('is in no audit record, log or other file of the server', () => {
    assert.ok(s.auditSince(0).some((r) => JSON.stringify(r).includes('community-string list')));
    assert.ok(!JSON.stringify(s.auditSince(0)).includes(LAB_SNMP_COMMUNITY));
    assert.deepEqual(filesHolding(s.k.stateDir, LAB_SNMP_COMMUNITY), []);
  });
});

describe('CUCM-SNMP-01 without a community string', () => {
  it('passes on the redacted output of a node that has none', async () => {
    const s = await auditStack('cucm', { weaknesses: [] });
    try {
      const run = await runChecklist(
        { ...CUCM_CHECKLIST, checks: SNMP_01 },
        s.node('cucm').name,
        mcpCaller(s.mcp.auditor),
      );
      assert.deepEqual(run.unjudged, []);
      assert.deepEqual(run.findings, []);
    } finally {
      await s.stop();
    }
  });
});
