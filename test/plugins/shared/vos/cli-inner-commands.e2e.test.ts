// Every CLI command a tool types is checked against the caller's SSH allowlist before it is sent, not
// only the one the tool's access names: a client whose allowlist permits a tool's first command but not a
// later one is refused with the coded permission error the moment the tool would type it, nothing of that
// command reaches the node (the lab's SSH server records every command line), and the refusal is on the
// call's outcome record. Real MCP clients, the real kernel, the lab's VOS nodes over real SSH.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import { startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';
import { tempStateDir } from '../../../helpers/state-dir.ts';

const HISTORY = 'utils disaster_recovery history backup';
const STATUS = 'utils disaster_recovery status backup';

describe('CLI tools: each command they type checked against the SSH allowlist', () => {
  const state = tempStateDir('ucmcp-clirbac-');
  let s: ProductStack;
  before(async () => {
    // auditor1 keeps its profile (which permits all of these) but its client.json denies one later
    // command of each tool; the tools' own access subjects stay permitted.
    mkdirSync(join(state.dir, 'clients', 'auditor1'), { recursive: true });
    writeFileSync(
      join(state.dir, 'clients', 'auditor1', 'client.json'),
      JSON.stringify({
        redirect_uris: [],
        allowlists: { ssh: { deny: [STATUS, 'show cert own CallManager/*', 'show network cluster'] } },
        rateLimits: {},
      }),
    );
    s = await startProductStack({ stateDir: state.dir });
  });
  after(async () => {
    await s?.stop();
    state.cleanup();
  });

  /** The command lines the lab's nodes received since `from`. */
  const typed = (from: number, node: string): string[] =>
    s.lab.state.log.commands
      .slice(from)
      .filter((c) => c.node === node)
      .map((c) => c.command);

  const outcomeOf = (mark: number, tool: string): Record<string, unknown> | undefined =>
    actionOutcomes(s.auditSince(mark)).find((a) => a.tool_name === tool);

  it('*_drf_status: the history is read, the refused status command is never typed, the call is DENIED', async () => {
    const imp = s.node('imp').name;
    const mark = s.mark();
    const from = s.lab.state.log.commands.length;
    const r = await s.fails('auditor', 'imp_drf_status', { host: imp });
    assert.equal(r.error, 'ProfilePermissionError', r.message);
    assert.match(r.message, /does not allow SSH utils disaster_recovery status backup/);
    // The login's own `set cli pagination off` aside, only the permitted first command reached the node.
    assert.deepEqual(
      typed(from, imp).filter((c) => c !== 'set cli pagination off'),
      [HISTORY],
    );
    const outcome = outcomeOf(mark, 'imp_drf_status');
    assert.equal(outcome?.result, 'DENIED');
    assert.deepEqual(outcome?.denied_requests, [{ service: 'ssh', operation: STATUS }]);
  });

  it('*_cert_list: a refused show cert own ends the call before it is typed; other units still read', async () => {
    const cucm = s.node('cucm').name;
    const ok = await s.ok('auditor', 'cucm_cert_list', { host: cucm, units: ['tomcat'] });
    assert.equal((ok.nodes as { own: unknown[] }[])[0]?.own.length, 1);
    const mark = s.mark();
    const from = s.lab.state.log.commands.length;
    const r = await s.fails('auditor', 'cucm_cert_list', { host: cucm });
    assert.equal(r.error, 'ProfilePermissionError', r.message);
    assert.match(r.message, /show cert own CallManager\/CallManager\.pem/);
    const sent = typed(from, cucm);
    assert.equal(sent[0], 'show cert list own');
    assert.ok(sent.includes('show cert own tomcat/tomcat.pem'), sent.join(' | '));
    assert.ok(!sent.some((c) => c.startsWith('show cert own CallManager')), sent.join(' | '));
    const outcome = outcomeOf(mark, 'cucm_cert_list');
    assert.equal(outcome?.result, 'DENIED');
    assert.deepEqual(outcome?.denied_requests, [
      { service: 'ssh', operation: 'show cert own CallManager/CallManager.pem' },
    ]);
  });

  it('the cluster discovery (show network cluster) is refused before anything is typed on any node', async () => {
    const cucm = s.node('cucm').name;
    const mark = s.mark();
    const from = s.lab.state.log.commands.length;
    const r = await s.fails('auditor', 'cucm_cert_list', { host: cucm, all_nodes: true, units: ['tomcat'] });
    assert.equal(r.error, 'ProfilePermissionError', r.message);
    assert.match(r.message, /show network cluster/);
    assert.deepEqual(s.lab.state.log.commands.slice(from), [], 'nothing typed on any node');
    const outcome = outcomeOf(mark, 'cucm_cert_list');
    assert.equal(outcome?.result, 'DENIED');
    assert.deepEqual(outcome?.denied_requests, [{ service: 'ssh', operation: 'show network cluster' }]);
  });
});
