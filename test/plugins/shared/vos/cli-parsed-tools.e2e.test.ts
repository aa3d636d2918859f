// The CLI-parsed tools (*_drf_status, *_cert_list) end to end: real MCP clients, the real kernel and the
// lab's VOS nodes over real SSH. The parsed answers are checked against what the lab really holds (its
// DRF runs, the tomcat certificate each node serves), and the refusals come back as coded errors.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../../lab/index.ts';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import { freePort } from '../../../helpers/server-process.ts';
import {
  assertRefusedOutsideScope,
  labCredential,
  startProductStack,
  type ProductStack,
} from '../../../helpers/product-stack.ts';

interface Own {
  name: string;
  unit: string;
  description: string;
  subject: string | null;
  issuer: string | null;
  not_after: string | null;
  days_left: number | null;
  serial: string | null;
  key_type: string | null;
  key_bits: number | null;
  self_signed: boolean | null;
  source: string;
}
interface NodeCerts {
  node: string;
  role: string | null;
  reached: boolean;
  error: { error: string; message: string } | null;
  own: Own[];
  trust: { name: string; unit: string }[] | null;
  errors: unknown[];
  unrecognised: unknown[];
}
interface Run {
  tar: string | null;
  result: string;
  type: string;
  started_at: string | null;
  features: string[];
}

const DAY = 86_400_000;

describe('*_drf_status and *_cert_list through MCP against the lab', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    // `site` scale: a cluster of several call-processing nodes, as the issue wants the tools to handle.
    s = await startProductStack({
      lab: { scale: 'site' },
      env: { NODE_RETRY_ATTEMPTS: '2', NODE_RETRY_BASE_MS: '50' },
    });
    cucm = s.node('cucm');
  });
  after(async () => {
    await s.stop();
  });

  // The lab runs its weak profile: no backup was ever set up on CUCM (cucm-no-backup), IM&P's nightly
  // runs fail since one manual backup 97 days ago (imp-backup-stale), and Unity Connection's schedule was
  // disabled after one backup 45 days ago, a manual retry two days ago failing (cuc-no-recent-backup).
  it('imp_drf_status parses the history, the last and last successful runs, the job and the schedule', async () => {
    const mark = s.mark();
    const imp = s.node('imp');
    const r = await s.ok('auditor', 'imp_drf_status', { host: imp.name });
    const history = r.history as Run[];
    assert.deepEqual(
      history.map((h) => [h.result, h.type]),
      [
        ['SUCCESS', 'MANUAL'],
        ['ERROR', 'SCHEDULED'],
        ['ERROR', 'SCHEDULED'],
        ['ERROR', 'SCHEDULED'],
      ],
      JSON.stringify(r),
    );
    assert.deepEqual(history[0]?.features, ['CUP']);
    assert.deepEqual(history[1]?.features, [], 'a failed run backed nothing up');
    const last = r.last_backup as Run;
    const lastOk = r.last_successful_backup as Run;
    assert.equal(last.result, 'ERROR');
    assert.equal(lastOk.type, 'MANUAL');
    const days = Math.round((Date.now() - Date.parse(lastOk.started_at ?? '')) / DAY);
    assert.ok(days >= 96 && days <= 98, `last successful backup ${lastOk.started_at}`);
    const status = r.status as Record<string, unknown> & { components: { server: string; result: string }[] };
    assert.equal(status.available, true);
    assert.equal(status.result, 'ERROR');
    assert.ok((status.percent_complete as number) < 100);
    assert.equal(`${String(status.tar)}.tar`, last.tar, 'the status is the last run of the history');
    assert.deepEqual(
      status.components.map((c) => [c.server, c.result]),
      [[imp.name, 'ERROR']],
    );
    assert.deepEqual(r.schedules, [{ name: 'DailyBackup', device: 'BACKUP_SFTP', enabled: true }]);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.unrecognised, []);
    const typed = s.lab.state.log.commands.filter((c) => Date.parse(c.time) >= Date.now() - 60_000);
    for (const cmd of [
      'utils disaster_recovery history backup',
      'utils disaster_recovery status backup',
      'utils disaster_recovery schedule list',
    ])
      assert.ok(
        typed.some((c) => c.node === imp.name && c.command === cmd && c.outcome === 'ok'),
        cmd,
      );
    const rec = actionOutcomes(s.auditSince(mark)).find((x) => x.tool_name === 'imp_drf_status');
    assert.equal(rec?.result, 'ALLOWED');
    assert.equal(rec?.host, imp.name);
    assert.equal(rec?.operation, 'utils disaster_recovery history backup');
  });

  it('cucm_drf_status and cuc_drf_status: no backup at all, and a disabled schedule', async () => {
    const none = await s.ok('auditor', 'cucm_drf_status', { host: cucm.name });
    assert.deepEqual(none.history, []);
    assert.equal(none.last_backup, null);
    assert.equal(none.last_successful_backup, null);
    assert.equal((none.status as { available: boolean }).available, false);
    assert.deepEqual(none.schedules, []);
    const cuc = await s.ok('auditor', 'cuc_drf_status', { host: s.node('cuc').name });
    assert.deepEqual(
      (cuc.history as Run[]).map((h) => h.result),
      ['SUCCESS', 'ERROR'],
    );
    assert.equal((cuc.last_backup as Run).result, 'ERROR');
    assert.deepEqual(cuc.schedules, [{ name: 'DailyBackup', device: 'BACKUP_SFTP', enabled: false }]);
  });

  it('cucm_cert_list details every own certificate; tomcat is the certificate the node serves', async () => {
    const r = await s.ok('auditor', 'cucm_cert_list', { host: cucm.name, trust: true });
    const [node] = r.nodes as NodeCerts[];
    assert.ok(node?.reached);
    assert.deepEqual(
      node.own.map((c) => c.name),
      [
        'tomcat/tomcat.pem',
        'tomcat-ECDSA/tomcat-ECDSA.pem',
        'ipsec/ipsec.pem',
        'ITLRecovery/ITLRecovery.pem',
        'CallManager/CallManager.pem',
        'CAPF/CAPF.pem',
        'TVS/TVS.pem',
      ],
    );
    const served = new X509Certificate(cucm.certPem ?? '');
    const tomcat = node.own[0]!;
    assert.equal(tomcat.source, 'pem');
    assert.equal(tomcat.not_after, new Date(served.validTo).toISOString());
    assert.equal(tomcat.serial, served.serialNumber.toLowerCase().replace(/^0+(?=.)/, ''));
    assert.equal(tomcat.self_signed, cucm.selfSigned);
    assert.equal(/self-signed/i.test(tomcat.description), cucm.selfSigned);
    assert.match(tomcat.subject ?? '', new RegExp(`CN=${cucm.name}\\.`));
    assert.equal(tomcat.key_type, 'RSA');
    assert.equal(tomcat.key_bits, 2048);
    // Weak profile: the served tomcat certificate expires in 10 days (cucm-tomcat-cert-expiring).
    assert.equal(tomcat.days_left, Math.floor((Date.parse(tomcat.not_after ?? '') - Date.now()) / DAY));
    assert.ok((tomcat.days_left ?? 99) < 30);
    for (const c of node.own.slice(1)) {
      assert.ok(c.not_after && c.days_left !== null && c.days_left > 30, JSON.stringify(c));
      assert.ok(c.issuer && c.subject && c.serial && c.key_bits, JSON.stringify(c));
    }
    assert.equal(node.own.find((c) => c.unit === 'tomcat-ECDSA')?.key_type, 'EC');
    assert.ok(
      node.trust?.some((t) => t.name === 'tomcat-trust/cucm-pub.pem'),
      JSON.stringify(node.trust),
    );
    assert.deepEqual(node.errors, []);
    const only = await s.ok('auditor', 'cucm_cert_list', { host: cucm.name, units: ['CallManager'] });
    assert.deepEqual(
      (only.nodes as NodeCerts[])[0]?.own.map((c) => c.name),
      ['CallManager/CallManager.pem'],
    );
  });

  it('all_nodes reads every cluster node it has a credential for and lists the others, not reached', async () => {
    const r = await s.ok('auditor', 'cucm_cert_list', { host: cucm.name, all_nodes: true });
    const nodes = r.nodes as NodeCerts[];
    const byName = new Map(nodes.map((n) => [n.node, n]));
    // Every node the publisher lists: the lab's call-processing nodes (the site scale's) and IM&P.
    const callManagers = s.lab.state.cucm.ris.nodes;
    assert.equal(nodes.length, callManagers.length + 1, [...byName.keys()].join(', '));
    for (const n of callManagers) assert.ok(byName.has(n), `${n} listed`);
    assert.ok(byName.has('imp-pub') && byName.has('cucm-sub1'));
    assert.equal(byName.get('cucm-pub')?.reached, true);
    assert.equal(byName.get('cucm-pub')?.role, 'Publisher');
    assert.ok((byName.get('cucm-pub')?.own.length ?? 0) > 0);
    // The 14.0 cluster's publisher has a credential too, but this cluster does not list it: not read.
    const legacy = s.lab.info.nodes.find((n) => n.product === 'cucm' && n.name !== cucm.name);
    if (legacy) assert.ok(!byName.has(legacy.name), legacy.name);
    // The lab serves the publisher's CLI only: the others are listed, never contacted.
    for (const other of nodes.filter((n) => n.node !== 'cucm-pub')) {
      assert.equal(other.reached, false, other.node);
      assert.equal(other.error?.error, 'CredentialError', other.node);
    }
  });

  it('imp_cert_list and cuc_cert_list read their nodes', async () => {
    for (const product of ['imp', 'cuc'] as const) {
      const node = s.node(product);
      const r = await s.ok('auditor', `${product}_cert_list`, { host: node.name });
      const own = (r.nodes as NodeCerts[])[0]?.own ?? [];
      const tomcat = own.find((c) => c.name === 'tomcat/tomcat.pem');
      assert.equal(
        tomcat?.not_after,
        new Date(new X509Certificate(node.certPem ?? '').validTo).toISOString(),
      );
      assert.equal(tomcat?.self_signed, node.selfSigned);
    }
  });

  it('refuses with coded errors: no OS credential, unknown node, bad units, a dead node, out of scope', async () => {
    const sent = (): number => s.lab.state.log.commands.length;
    const before = sent();
    // The admin has stored nothing yet.
    const noCred = await s.fails('admin', 'cucm_drf_status', { host: cucm.name });
    assert.equal(noCred.error, 'CredentialError', noCred.message);
    const unknown = await s.fails('auditor', 'cucm_cert_list', { host: 'no-such-node' });
    assert.equal(unknown.error, 'CredentialError', unknown.message);
    const badUnits = await s.fails('auditor', 'cucm_cert_list', {
      host: cucm.name,
      units: ['tomcat; utils system restart'],
    });
    assert.equal(badUnits.error, 'BAD_REQUEST', badUnits.message);
    assert.equal(sent(), before, 'nothing was typed on a node');
    // A node whose SSH port answers nothing.
    const port = await freePort();
    await s.ok('admin', 'cucm_os_store_credentials', {
      ...labCredential(s.lab, cucm, 'os'),
      host: 'cucm-dead',
      address: `127.0.0.1:${port}`,
    });
    const dead = await s.fails('admin', 'cucm_cert_list', { host: 'cucm-dead' });
    assert.equal(dead.error, 'ConnectivityError', dead.message);
    const deadDrf = await s.fails('admin', 'cucm_drf_status', { host: 'cucm-dead' });
    assert.equal(deadDrf.error, 'ConnectivityError', deadDrf.message);
    // RBAC: the tool is checked on its command against the SSH allowlist, which for the operator has
    // no `utils disaster_recovery` command (its read-only CLI list), while `show *` lets it list certificates.
    const op = await s.fails('operator', 'cucm_drf_status', { host: cucm.name });
    assert.equal(op.error, 'ProfilePermissionError', op.message);
    assert.equal(sent(), before, 'nothing was typed for a refused call');
    await s.ok('operator', 'cucm_cert_list', { host: cucm.name, units: ['tomcat'] });
    await assertRefusedOutsideScope(s, ['cucm_drf_status', 'cucm_cert_list'], cucm.name);
  });
});
