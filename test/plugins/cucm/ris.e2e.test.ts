// cucm_download_ris_toolkit and cucm_risport_query end to end through real MCP clients against the
// lab's RisPort70: paging with StateInfo, de-duplication, and the node's per-minute limit shared by
// every client of the cluster.
import assert from 'node:assert/strict';
import { actionOutcomes } from '../../helpers/kernel.ts';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

describe('cucm RIS tools through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack({
      lab: { extraPhones: 1200, risMaxDevicesPerAnswer: 500 },
    });
    cucm = await prepareCucm(s);
  });
  after(async () => {
    await s.stop();
  });

  it('a query before the RIS schema is cached names the download tool; the download is admin-only', async () => {
    const early = await s.fails('auditor', 'cucm_risport_query', { host: cucm.name });
    assert.equal(early.error, 'BAD_REQUEST');
    assert.match(early.message, /cucm_download_ris_toolkit/);
    const denied = await s.fails('operator', 'cucm_download_ris_toolkit', { host: cucm.name });
    assert.equal(denied.error, 'ProfilePermissionError');
    const mark = s.mark();
    const r = await s.ok('admin', 'cucm_download_ris_toolkit', { host: cucm.name });
    assert.ok((r.operations as string[]).includes('selectCmDevice'));
    const rec = actionOutcomes(s.auditSince(mark)).find((x) => x.tool_name === 'cucm_download_ris_toolkit');
    assert.equal(rec?.host, cucm.name);
  });

  it('pages every device once with StateInfo and reports registration states', async () => {
    const mark = s.mark();
    const names = new Set<string>();
    let stateInfo: string | undefined;
    let requests = 0;
    for (let i = 0; i < 4; i++) {
      const r = await s.ok('auditor', 'cucm_risport_query', {
        host: cucm.name,
        operation: 'selectCmDeviceExt',
        max_devices: 50_000,
        max_requests: 5,
        ...(stateInfo ? { state_info: stateInfo } : {}),
      });
      requests += r.requests as number;
      for (const d of r.devices as { name: string; status: string }[]) {
        assert.ok(!names.has(d.name), `${d.name} returned twice`);
        names.add(d.name);
      }
      stateInfo = r.state_info as string | undefined;
      if (r.complete) break;
    }
    assert.equal(stateInfo, undefined, 'the query completed');
    assert.ok(names.size >= 1200, `${names.size} devices`);
    assert.ok(requests <= 4, `${requests} requests for 1,200+ devices at 500 an answer`);
    const actions = actionOutcomes(s.auditSince(mark)).filter((x) => x.tool_name === 'cucm_risport_query');
    assert.ok(actions.length > 0 && actions.every((x) => x.host === cucm.name && x.result === 'ALLOWED'));
  });

  it('the cluster budget is shared by every client; past it the call is RISError with retry_after', async () => {
    // The previous test spent part of the node's 15-a-minute budget; other clients share what is left.
    let last: { error: string; message: string } | undefined;
    const roles = ['operator', 'admin'] as const;
    for (let i = 0; i < 16; i++) {
      const role = roles[i % 2] as (typeof roles)[number];
      const r = await s.mcp[role].call('cucm_risport_query', {
        host: cucm.name,
        select_items: ['SEP0A1B2C3D4E01'],
      });
      if (r.isError || (r.structuredContent as { stopped_because?: string }).stopped_because) {
        const sc = r.structuredContent as Record<string, unknown>;
        last = { error: String(sc.error), message: String(sc.message ?? sc.stopped_because) };
        break;
      }
    }
    assert.ok(last, 'the shared budget ran out within 16 calls');
    assert.notEqual(last.error, 'RATE_LIMITED', 'the cluster limit, not a client profile limit, stopped it');
    assert.match(`${last.error} ${last.message}`, /RIS|rate/i);
    const risFaults = s.lab.state.log.requests.filter((r) => r.service === 'ris' && r.status === 500).length;
    assert.equal(risFaults, 0, 'the node never had to refuse a request');
  });

  it('RIS allowlist: selectCtiItem is outside the operator allowlist', async () => {
    const r = await s.fails('operator', 'cucm_risport_query', {
      host: cucm.name,
      operation: 'selectCtiItem',
    });
    assert.ok(['ProfilePermissionError', 'BAD_REQUEST'].includes(r.error), r.error);
  });
});
