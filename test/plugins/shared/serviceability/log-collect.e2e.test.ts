// Collecting log files end to end through real MCP clients against the lab's DimeGetFileService (HTTPS
// with pinned certificates, the file as an Axis 1 SOAP-with-Attachments part): a gzip trace kept
// expanded and a plain log kept as sent, each handed over as a resource link the caller reads with
// resources/read (and nobody else can), audited with the operation; refusals: the auditor profile, paths
// outside /var/log (nothing sent), a file the node does not have beside one it has, a file over the cap.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../../lab/index.ts';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import { startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';

interface Listed {
  log: string;
  name: string;
  path: string;
  size: number;
}

describe('log_collect through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let sdl: Listed;
  let audit: Listed;
  let tomcat: Listed;
  before(async () => {
    s = await startProductStack({ prepare: ['cucm', 'cuc'] });
    cucm = s.node('cucm');
    const r = await s.ok('operator', 'cucm_log_list', {
      host: cucm.name,
      services: ['Cisco CallManager', 'Cisco Audit Logs', 'Cisco Tomcat'],
      since_minutes: 360,
    });
    const files = (r.nodes as { files: Listed[] }[])[0]?.files ?? [];
    sdl = files.find((f) => f.log === 'Cisco CallManager') as Listed;
    audit = files.find((f) => f.log === 'Cisco Audit Logs') as Listed;
    tomcat = files.find((f) => f.log === 'Cisco Tomcat') as Listed;
    assert.ok(sdl && audit);
  });
  after(async () => {
    await s?.stop();
  });

  it('keeps a gzip trace expanded and a plain log as sent, handed over as resource links', async () => {
    const mark = s.mark();
    const from = s.lab.state.log.requests.length;
    const r = await s.mcp.operator.call('cucm_log_collect', {
      host: cucm.name,
      files: [sdl.path, audit.path],
    });
    assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
    const out = r.structuredContent as {
      files: {
        path: string;
        name: string;
        uri: string;
        bytes_received: number;
        bytes_kept: number;
        expanded: boolean;
        mime_type: string;
      }[];
      complete: boolean;
    };
    assert.equal(out.complete, true);
    const [trace, log] = out.files;
    assert.equal(trace?.name, `${cucm.name}_${sdl.name.replace(/\.gz$/, '')}`);
    assert.equal(trace?.bytes_received, sdl.size);
    assert.equal(trace?.expanded, true);
    assert.ok((trace?.bytes_kept ?? 0) > 0);
    assert.equal(trace?.mime_type, 'text/plain');
    assert.equal(log?.expanded, false);
    assert.equal(log?.bytes_kept, audit.size);
    assert.deepEqual(r.content.filter((c) => c.type === 'resource_link').length, 2);
    assert.deepEqual(s.serviceabilityOps(from), [
      'DimeGetFileService.GetOneFile',
      'DimeGetFileService.GetOneFile',
    ]);
    const read = await s.mcp.operator.client.readResource({ uri: trace!.uri });
    const text = (read.contents[0] as { text?: string }).text ?? '';
    assert.match(text, /CallManager\|SdlSig\|TimerTick/);
    // Another client asking for it is answered as if it were not there.
    await assert.rejects(() => s.mcp.admin.client.readResource({ uri: trace!.uri }), /nothing at|not found/i);
    const [action] = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === 'cucm_log_collect');
    assert.equal(action?.operation, 'GetOneFile');
    assert.equal(action?.result, 'ALLOWED');
    assert.ok(s.auditSince(mark).some((e) => e.event === 'WRITTEN' && e.log === trace?.name));
  });

  it('refuses the auditor and paths outside /var/log before anything is sent', async () => {
    const sent = s.lab.state.log.requests.length;
    const denied = await s.fails('auditor', 'cucm_log_collect', { host: cucm.name, files: [sdl.path] });
    assert.equal(denied.error, 'ProfilePermissionError');
    for (const path of [
      '/etc/passwd',
      '/var/log/active/../../../etc/shadow',
      'var/log/x',
      '/var/log/a\u0000b',
    ])
      assert.equal(
        (await s.fails('operator', 'cucm_log_collect', { host: cucm.name, files: [path] })).error,
        'BAD_REQUEST',
        path,
      );
    assert.equal(s.lab.state.log.requests.length, sent, 'nothing was sent');
  });

  it('a file the node does not have is listed in failed beside one it has', async () => {
    const r = await s.ok('operator', 'cucm_log_collect', {
      host: cucm.name,
      files: ['/var/log/active/cm/trace/ccm/sdl/SDL001_100_999999.txt.gz', audit.path],
    });
    assert.equal(r.complete, false);
    const [failed] = r.failed as { path: string; error: { code: string; message: string } }[];
    assert.equal(failed?.error.code, 'SERVICEABILITY_ERROR');
    assert.match(failed?.error.message ?? '', /GetOneFile.*not found/);
    assert.equal((r.files as unknown[]).length, 1);
  });

  it('a file over max_file_bytes is refused with PAYLOAD_TOO_LARGE, nothing kept', async () => {
    assert.ok(tomcat.size > 2048, String(tomcat.size));
    const r = await s.fails('operator', 'cucm_log_collect', {
      host: cucm.name,
      files: [tomcat.path],
      max_file_bytes: 2048,
    });
    assert.equal(r.error, 'PAYLOAD_TOO_LARGE');
    assert.match(r.message, /more than max_file_bytes \(2048\); not kept/);
    const listed = await s.mcp.operator.client.listResources();
    assert.ok(!listed.resources.some((x) => x.uri.endsWith(tomcat.name)));
  });

  it('the Unity Connection twin collects from its own node', async () => {
    const cuc = s.node('cuc');
    const l = await s.ok('operator', 'cuc_log_list', { host: cuc.name, services: ['Connection Notifier'] });
    const [f] = (l.nodes as { files: Listed[] }[])[0]?.files ?? [];
    const r = await s.ok('operator', 'cuc_log_collect', { host: cuc.name, files: [f!.path] });
    assert.match(
      (r.files as { uri: string }[])[0]?.uri ?? '',
      /^cuclog:\/\/operator1\/.+_diag_CuNotifier_\d{8}\.uc$/,
    );
  });
});
