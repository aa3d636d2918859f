// python zeep against the lab's LogCollectionPortTypeService with the WSDL each node serves (strict
// validation, HTTPS verified against the node's certificate, answers as Axis2 MTOM), the way Cisco's
// serviceability samples drive a real node, GetOneFile included (the file's bytes as an XOP part). Optional: skips, saying why, where no python3 has zeep and
// requests (Debian's python3-zeep is installed on the project's machines).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { filesOf, logServicesOf } from '../../lab/serviceability/logs/catalogue.ts';
import { pythonAgainstLab, pythonWith } from '../helpers/python-lab.ts';

interface ProductResult {
  nodes: string[];
  serviceLogs: string[];
  systemLogs: string[];
  node: string;
  log: string;
  files: number;
  first: { name: string; path: string; size: string };
  got: { bytes: number; sha256: string; type: string };
}

const found = pythonWith('python LogCollection');

describe('python zeep against the lab LogCollectionPortTypeService', { skip: found.skip }, () => {
  const run = pythonAgainstLab<Record<'cucm' | 'imp' | 'cuc', ProductResult>>(found, {
    script: 'log_collection.py',
    prefix: 'ucmcp-python-logs-',
  });

  it('lists every node of the cluster with its service and system logs', () => {
    const { lab, results } = run;
    assert.deepEqual(results.cucm.nodes, lab.state.cucm.ris.nodes);
    assert.ok(results.cucm.serviceLogs.includes('Cisco CallManager'));
    assert.ok(results.cucm.systemLogs.includes('Event Viewer-System Log'));
    assert.ok(results.imp.serviceLogs.includes('Cisco XCP Router'));
    assert.ok(results.cuc.serviceLogs.includes('Connection Conversation Manager'));
    assert.ok(!results.cuc.serviceLogs.includes('Cisco CallManager'));
  });

  it("selects a service's files with the sample's criteria", () => {
    const { lab, results } = run;
    assert.equal(results.cucm.log, 'Cisco CallManager');
    assert.equal(results.cucm.node, lab.state.cucm.node);
    assert.ok(results.cucm.files >= 24, String(results.cucm.files));
    assert.match(
      results.cucm.first.path,
      /^\/var\/log\/active\/cm\/trace\/ccm\/sdl\/SDL001_100_\d{6}\.txt\.gz$/,
    );
    assert.match(results.cucm.first.size, /^\d+$/);
    assert.match(results.imp.first.name, /^rtr-jsm-\d+\.log$/);
    assert.match(results.cuc.first.name, /^diag_CuNotifier_\d{8}\.uc$/);
  });

  it('downloads a listed file with GetOneFile, its bytes as the node holds them (MTOM/XOP)', () => {
    const { lab, results } = run;
    for (const p of ['cucm', 'imp', 'cuc'] as const) {
      const r = results[p];
      assert.equal(r.got.type, 'bytes', p);
      const now = Date.now();
      const ctx = { node: r.node, now, ...(p === 'cucm' ? { ris: lab.state.cucm.ris } : {}) };
      const file = logServicesOf(p)
        .flatMap((s) => filesOf(s, ctx, 0, now))
        .find((f) => f.path === r.first.path);
      assert.ok(file, `${p}: ${r.first.path} is a lab file`);
      // zeep strips CR and LF from both ends of a part sent with Content-Transfer-Encoding binary, as
      // Axis2 sends them (zeep/wsdl/attachments.py, Attachment.content): a real node's file loses them too.
      const content = file.content();
      let [start, end] = [0, content.length];
      while (start < end && (content[start] === 10 || content[start] === 13)) start++;
      while (end > start && (content[end - 1] === 10 || content[end - 1] === 13)) end--;
      const expected = createHash('sha256').update(content.subarray(start, end)).digest('hex');
      assert.equal(r.got.sha256, expected, `${p}: the bytes of ${r.first.path}`);
      assert.ok(r.got.bytes > 0 && String(content.length) === r.first.size, p);
    }
  });
});
