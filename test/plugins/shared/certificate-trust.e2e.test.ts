// HTTPS certificate trust on first use, through a real MCP client against the lab's self-signed nodes:
// a credential that pins nothing meets the node's certificate as a real user does (refused before any
// request, with its fingerprint, subject, validity and SANs); the admin trusts or rejects it with
// <product>_trust_certificate (audited TRUSTED); a changed certificate is refused naming both; a
// credential's own cert_pem or ca_cert_pem takes precedence over all of it.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { labCredential, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

/** A credential for the node with no certificate or CA pinned: what a new user stores first. */
function unpinned(s: ProductStack, node: LabNodeInfo, kind: 'axl' | 'cupi'): Record<string, unknown> {
  const { cert_pem: _cert, ca_cert_pem: _ca, ...rest } = labCredential(s.lab, node, kind);
  return rest;
}

/** What the node presents now, read as an operator would with openssl s_client. */
function presented(node: LabNodeInfo): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: node.host, port: node.ports.https as number, rejectUnauthorized: false },
      () => {
        const cert = new X509Certificate(socket.getPeerCertificate().raw);
        socket.destroy();
        resolve(cert);
      },
    );
    socket.once('error', reject);
  });
}

interface Refusal {
  error: string;
  message: string;
  details?: {
    certificate_trust: string;
    presented: {
      fingerprint: string;
      subject: string;
      issuer: string;
      self_signed: boolean;
      not_before: string;
      not_after: string;
      subject_alt_names: string[];
    };
    pinned_fingerprint?: string;
  };
}

describe('HTTPS certificate trust on first use', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let cuc: LabNodeInfo;
  let imp: LabNodeInfo;
  before(async () => {
    s = await startProductStack();
    cucm = s.node('cucm');
    cuc = s.node('cuc');
    imp = s.node('imp');
  });
  after(async () => {
    await s?.stop();
  });

  const refused = async (tool: string, args: Record<string, unknown>): Promise<Refusal> => {
    const r = await s.mcp.admin.call(tool, args);
    assert.equal(r.isError, true, `${tool} should fail: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent as unknown as Refusal;
  };
  const trustEvents = (mark: number): Record<string, unknown>[] =>
    s.auditSince(mark).filter((r) => r.event === 'TRUSTED' && r.kind === 'https_certificate');

  it('first contact reports the certificate and sends nothing; the admin trusts it and calls go through', async () => {
    await s.ok('admin', 'cucm_store_credentials', unpinned(s, cucm, 'axl'));
    const sent = s.lab.state.log.requests.length;
    const first = await refused('cucm_get_version', { host: cucm.name });
    assert.equal(first.error, 'ConnectivityError', first.message);
    assert.equal(first.details?.certificate_trust, 'unknown');
    const shown = first.details.presented;
    assert.equal(shown.fingerprint, cucm.certFingerprint);
    assert.match(shown.fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.match(shown.subject, /CN=cucm-pub\.lab\.example\.com/);
    assert.equal(shown.self_signed, true);
    assert.equal(shown.issuer, shown.subject);
    const served = await presented(cucm);
    assert.equal(Date.parse(shown.not_after), Date.parse(served.validTo));
    assert.equal(Date.parse(shown.not_before), Date.parse(served.validFrom));
    assert.ok(shown.subject_alt_names.includes('IP Address:127.0.0.1'), shown.subject_alt_names.join());
    assert.ok(first.message.includes(`SHA-256 ${served.fingerprint256}`), first.message);
    assert.match(first.message, /first HTTPS connection to cucm host cucm-pub/);
    assert.match(first.message, /cucm_trust_certificate/);
    assert.match(first.message, /valid \d{4}-\d\d-\d\dT.* to \d{4}-/);
    assert.equal(s.lab.state.log.requests.length, sent, 'no HTTP request reached the node');
    // Asked again: still refused, now awaiting the decision; the connectivity check says the same.
    const again = await refused('cucm_get_version', { host: cucm.name });
    assert.equal(again.details?.certificate_trust, 'pending');
    const check = await s.ok('admin', 'cucm_check_connectivity', { host: cucm.name });
    const axl = (check.services as Record<string, Record<string, unknown>>).axl;
    assert.equal(axl?.certificate_trust, 'pending', JSON.stringify(axl));
    assert.equal(axl?.presented_fingerprint, served.fingerprint256);

    // Only the admin decides, and only on the fingerprint the node presented.
    const denied = await s.fails('operator', 'cucm_trust_certificate', {
      host: cucm.name,
      fingerprint: served.fingerprint256,
      action: 'trust',
    });
    assert.equal(denied.error, 'ProfilePermissionError');
    const mark = s.mark();
    const other = s.node('cuc').certFingerprint as string;
    const wrong = await s.fails('admin', 'cucm_trust_certificate', {
      host: cucm.name,
      fingerprint: other,
      action: 'trust',
    });
    assert.equal(wrong.error, 'BAD_REQUEST');
    assert.match(wrong.message, /is not a certificate cucm host cucm-pub presented/);
    assert.equal(
      (await refused('cucm_get_version', { host: cucm.name })).details?.certificate_trust,
      'pending',
    );
    const trusted = await s.ok('admin', 'cucm_trust_certificate', {
      host: cucm.name,
      fingerprint: served.fingerprint256.toLowerCase(),
      action: 'trust',
    });
    assert.equal(trusted.state, 'trusted');
    assert.equal(trusted.fingerprint, served.fingerprint256);
    assert.deepEqual(
      trustEvents(mark).map((r) => [r.status, r.action ?? r.requested, r.fingerprint, r.client, r.host]),
      [
        ['REFUSED', 'trust', other, 'admin1', 'cucm-pub'],
        ['OK', 'trusted', served.fingerprint256, 'admin1', 'cucm-pub'],
      ],
    );
    await s.ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name });
    const version = await s.ok('admin', 'cucm_get_version', { host: cucm.name });
    assert.match(String(version.version), /^\d+\.\d/);
    assert.equal(s.lab.state.log.requests.length > sent, true);
  });

  it('a certificate changed after it was trusted is refused naming both fingerprints, until decided', async () => {
    const pinned = await presented(cucm);
    // The node regenerates its self-signed certificate (same name, new key).
    s.lab.state.hostile.set({ certificate: 'same-ca' }, [cucm.name]);
    try {
      const now = await presented(cucm);
      assert.notEqual(now.fingerprint256, pinned.fingerprint256);
      for (let i = 0; i < 2; i++) {
        const r = await refused('cucm_get_version', { host: cucm.name });
        assert.equal(r.error, 'ConnectivityError');
        assert.equal(r.details?.certificate_trust, 'changed');
        assert.equal(r.details?.pinned_fingerprint, pinned.fingerprint256);
        assert.equal(r.details?.presented.fingerprint, now.fingerprint256);
        assert.ok(r.message.includes(`pinned SHA-256 ${pinned.fingerprint256}`), r.message);
        assert.ok(r.message.includes(`presented SHA-256 ${now.fingerprint256}`), r.message);
      }
    } finally {
      s.lab.state.hostile.clear();
    }
    // The trusted certificate back: calls go through again, nothing to decide.
    await s.ok('admin', 'cucm_get_version', { host: cucm.name });
  });

  it('a rejected certificate refuses every call until the admin decides again', async () => {
    await s.ok('admin', 'cuc_store_credentials', unpinned(s, cuc, 'cupi'));
    const first = await refused('cuc_get_version', { host: cuc.name });
    const fp = first.details?.presented.fingerprint as string;
    assert.equal(fp, cuc.certFingerprint);
    const mark = s.mark();
    const rejected = await s.ok('admin', 'cuc_trust_certificate', {
      host: cuc.name,
      fingerprint: fp,
      action: 'reject',
    });
    assert.equal(rejected.state, 'rejected');
    assert.deepEqual(
      trustEvents(mark).map((r) => [r.status, r.action, r.fingerprint]),
      [['OK', 'rejected', fp]],
    );
    for (let i = 0; i < 2; i++) {
      const r = await refused('cuc_get_version', { host: cuc.name });
      assert.equal(r.details?.certificate_trust, 'rejected');
      assert.match(r.message, /was rejected; the connection was refused and nothing was sent/);
    }
    await s.ok('admin', 'cuc_trust_certificate', { host: cuc.name, fingerprint: fp, action: 'trust' });
    await s.ok('admin', 'cuc_get_version', { host: cuc.name });
  });

  it("a credential's own cert_pem or ca_cert_pem takes precedence over trust on first use", async () => {
    // cucm-pub's certificate is trusted in the vault; an explicit CA that did not issue it still refuses.
    const base = unpinned(s, cucm, 'axl');
    await s.ok('admin', 'cucm_update_credentials', { ...base, ca_cert_pem: s.lab.info.caCertPem });
    const byCa = await refused('cucm_get_version', { host: cucm.name });
    assert.equal(byCa.error, 'ConnectivityError');
    assert.equal(byCa.details, undefined, 'no trust decision is offered over an explicit pin');
    assert.match(byCa.message, /is not issued by the pinned CA SHA-256 [0-9A-F:]{95} \(UC MCP Lab CA/);
    // An explicit cert_pem of another certificate refuses too, naming both, though the vault trusts this one.
    const otherCert = (await presented(imp)).toString();
    await s.ok('admin', 'cucm_update_credentials', { ...base, cert_pem: otherCert });
    const byCert = await refused('cucm_get_version', { host: cucm.name });
    assert.equal(byCert.details, undefined);
    assert.match(byCert.message, /does not match the pinned one/);
    // The node's own certificate pinned in the credential: first contact needs no decision at all.
    const mark = s.mark();
    await s.ok('admin', 'imp_store_credentials', labCredential(s.lab, imp, 'axl'));
    await s.ok('admin', 'imp_download_axl_toolkit', { host: imp.name });
    await s.ok('admin', 'imp_get_version', { host: imp.name });
    assert.deepEqual(trustEvents(mark), []);
    // Back to no pin: the vault's trusted certificate applies again.
    await s.ok('admin', 'cucm_update_credentials', base);
    await s.ok('admin', 'cucm_get_version', { host: cucm.name });
  });
});
