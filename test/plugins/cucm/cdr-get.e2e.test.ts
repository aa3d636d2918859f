// cucm_cdr_get end to end through real MCP clients: the lab's CDR Repository node pushes each file by SFTP
// to the server's one-transfer receiver (loopback), the server reads it into records with causes decoded,
// and what is refused: a hostile file read safely, a file over CDR_FILE_MAX_BYTES, a file the node does
// not hold, a name that is not a CDR file name (nothing sent), RBAC product scope; and no secret of the
// transfer in the audit log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { cdrDateTime } from '../../../lab/cucm/cdr/repository.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';
import {
  assertRefusedOutsideScope,
  prepareNode,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';
import { freePort } from '../../helpers/server-process.ts';

describe('cucm_cdr_get through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let base: number;
  before(async () => {
    const port = await freePort();
    s = await startProductStack({
      lab: { cdrPushPort: port },
      env: {
        CDR_SFTP_ADDRESS: '127.0.0.1',
        CDR_SFTP_BIND_ADDRESS: '127.0.0.1',
        CDR_SFTP_PORT: String(port),
        CDR_SFTP_TIMEOUT_MS: '10000',
        CDR_FILE_MAX_BYTES: '200000',
      },
    });
    cucm = await prepareNode(s, 'cucm');
    base = Math.floor(Date.now() / 3_600_000) * 60 - 120;
  });
  after(async () => {
    await s?.stop();
  });

  it('fetches a CDR and a CMR file pushed by SFTP and reads them into records with causes decoded', async () => {
    const listed = await s.ok('auditor', 'cucm_cdr_files', { host: cucm.name, from: cdrDateTime(base) });
    const names = (listed.files as { name: string; kind: string }[]).filter((f) => f.name.includes('_01_'));
    const cdr = names.find((f) => f.kind === 'cdr')?.name as string;
    const cmr = names.find((f) => f.kind === 'cmr')?.name as string;
    const mark = s.mark();
    const r = await s.ok('operator', 'cucm_cdr_get', { host: cucm.name, files: [cdr, cmr] });
    const [c, m] = r.files as {
      name: string;
      kind: string;
      records: number;
      rows: Record<string, unknown>[];
      bytes: number;
    }[];
    const repo = s.lab.state.cucm.cdr;
    const cdrText = repo.content(repo.find(cdr)!);
    assert.equal(c?.name, cdr);
    assert.equal(c?.bytes, Buffer.byteLength(cdrText));
    assert.equal(c?.records, cdrText.trim().split('\n').length - 2);
    const first = c?.rows[0] as Record<string, unknown>;
    assert.match(String(first.dateTimeOrigination), /^\d{4}-\d{2}-\d{2}T/);
    assert.match(String(first.origDeviceName), /^SEP/);
    const causes = c!.rows.map((row) => row.destCause_value as { value: number; meaning: string });
    for (const cause of causes)
      assert.ok(
        ['No error', 'User busy', 'No answer from user (user alerted)', 'Temporary failure'].includes(
          cause.meaning,
        ),
      );
    assert.equal(m?.kind, 'cmr');
    assert.ok(
      m!.rows.every((row) => typeof row.numberPacketsLost === 'number' && typeof row.jitter === 'number'),
    );
    assert.equal(r.requests, 2);
    const [action] = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === 'cucm_cdr_get');
    assert.equal(action?.operation, 'get_file');
    assert.equal(action?.result, 'ALLOWED');
  });

  it('a hostile file is read safely: quotes, formula cells and a huge line', async () => {
    const minute = base + 30;
    const name = `cdr_StandAloneCluster_01_${cdrDateTime(minute)}_990001`;
    s.lab.state.cucm.cdr.add({
      name,
      kind: 'cdr',
      minute,
      node: cucm.name,
      sent: true,
      content:
        '"globalCallID_callId","callingPartyNumber","origCause_value"\nINTEGER,VARCHAR(50),INTEGER\n' +
        '7,"=cmd|\' /C calc\'!A0",16\n' +
        `8,"${'x'.repeat(70_000)}",16\n` +
        '9,"say ""hi"", then <b>",17\n',
    });
    const r = await s.ok('auditor', 'cucm_cdr_get', { host: cucm.name, files: [name], fields: 'all' });
    const [f] = r.files as { rows: Record<string, unknown>[]; skipped_lines: Record<string, number> }[];
    assert.deepEqual(f?.rows, [
      {
        globalCallID_callId: 7,
        callingPartyNumber: "=cmd|' /C calc'!A0",
        origCause_value: { value: 16, meaning: 'Normal call clearing' },
      },
      {
        globalCallID_callId: 9,
        callingPartyNumber: 'say "hi", then <b>',
        origCause_value: { value: 17, meaning: 'User busy' },
      },
    ]);
    assert.equal(f?.skipped_lines.too_long, 1);
  });

  it('refuses a file over CDR_FILE_MAX_BYTES, a file the node does not hold, and a name that is no CDR file', async () => {
    const minute = base + 31;
    const big = `cmr_StandAloneCluster_01_${cdrDateTime(minute)}_990002`;
    s.lab.state.cucm.cdr.add({
      name: big,
      kind: 'cmr',
      minute,
      node: cucm.name,
      sent: true,
      content: 'x'.repeat(300_000),
    });
    const tooBig = await s.fails('auditor', 'cucm_cdr_get', { host: cucm.name, files: [big] });
    assert.equal(tooBig.error, 'SERVICEABILITY_ERROR');
    assert.match(tooBig.message, /more than 200000 bytes|transfer .* failed/);
    const missing = await s.fails('auditor', 'cucm_cdr_get', {
      host: cucm.name,
      files: [`cdr_StandAloneCluster_01_${cdrDateTime(base - 5000)}_1`],
    });
    assert.equal(missing.error, 'SERVICEABILITY_ERROR');
    assert.match(missing.message, /not found in the CDR Repository/);
    const sent = s.lab.state.log.requests.length;
    const bad = await s.fails('auditor', 'cucm_cdr_get', { host: cucm.name, files: ['../../etc/passwd'] });
    assert.equal(bad.error, 'BAD_REQUEST');
    assert.equal(s.lab.state.log.requests.length, sent, 'nothing was sent');
  });

  it('no secret of a transfer reaches the audit log', () => {
    const audit = JSON.stringify(s.auditSince(0));
    assert.doesNotMatch(audit, /cdr[0-9a-f]{12}/);
    assert.doesNotMatch(audit, /"in2"|password=/i);
  });

  it('RBAC: outside the product scope nothing is sent', async () => {
    await assertRefusedOutsideScope(s, ['cucm_cdr_get'], cucm.name);
  });
});
