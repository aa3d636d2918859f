// A hostile node changes its HTTPS certificate after the client pinned it (cert_pem) or pinned its CA
// (ca_cert_pem). Through the real tools: every call is refused with ConnectivityError naming the pinned
// and the presented certificate by SHA-256 fingerprint, never silently accepted; the pinned certificate
// works again as soon as the node presents it. A renewal by the pinned CA is accepted: that is what
// pinning a CA means. The lab's nodes are CA-signed here (certificates: 'lab-ca'), so that a CA can be
// pinned at all; certificate-trust.e2e.test.ts covers the default self-signed nodes.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { labCredential, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

/** What the node presents now, read the way an operator would with openssl s_client. */
function presented(node: LabNodeInfo): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: node.host, port: node.ports.https ?? 0, rejectUnauthorized: false },
      () => {
        const cert = new X509Certificate(socket.getPeerCertificate().raw);
        socket.destroy();
        resolve(cert);
      },
    );
    socket.once('error', reject);
  });
}

describe('hostile node: a TLS certificate that changes', () => {
  let s: ProductStack;
  let cuc: LabNodeInfo;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack({
      lab: { certificates: 'lab-ca' },
      seedVaultFor: ['admin', 'operator', 'auditor'],
    });
    cuc = s.node('cuc');
    cucm = s.node('cucm');
    await s.ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name });
  });
  after(async () => {
    await s?.stop();
  });

  it('a pinned certificate replaced by another is refused, both fingerprints named, every time', async () => {
    // The node serves a self-signed certificate; the admin pins exactly that one.
    s.lab.state.hostile.set({ certificate: 'self-signed' }, [cuc.name]);
    const pinned = await presented(cuc);
    // Stored beside the seeded CA-pinned credential of the node, under a name of its own.
    const { ca_cert_pem: _ca, cert_pem: _cert, ...cred } = labCredential(s.lab, cuc, 'cupi');
    const host = 'cuc-pinned.example.com';
    await s.ok('admin', 'cuc_store_credentials', { ...cred, host, cert_pem: pinned.toString() });
    const list = { host, resource: 'users' };
    await s.ok('admin', 'cuc_cupi_list', list);

    for (const attack of ['self-signed-2', 'same-ca'] as const) {
      s.lab.state.hostile.set({ certificate: attack }, [cuc.name]);
      const now = await presented(cuc);
      assert.notEqual(now.fingerprint256, pinned.fingerprint256);
      for (let i = 0; i < 2; i++) {
        const r = await s.fails('admin', 'cuc_cupi_list', list);
        assert.equal(r.error, 'ConnectivityError', `${attack}: ${r.message}`);
        assert.match(r.message, /does not match the pinned one/);
        assert.ok(r.message.includes(`pinned SHA-256 ${pinned.fingerprint256}`), r.message);
        assert.ok(r.message.includes(`presented SHA-256 ${now.fingerprint256}`), r.message);
      }
    }
    // The pinned certificate back: the same session works again.
    s.lab.state.hostile.set({ certificate: 'self-signed' }, [cuc.name]);
    await s.ok('admin', 'cuc_cupi_list', list);
  });

  it('a certificate not issued by the pinned CA is refused on every service, the presented one named', async () => {
    await s.ok('admin', 'cucm_get_version', { host: cucm.name });
    s.lab.state.hostile.set({ certificate: 'self-signed' }, [cucm.name]);
    const now = await presented(cucm);
    for (const [tool, args] of [
      ['cucm_get_version', { host: cucm.name }],
      ['cucm_download_axl_toolkit', { host: cucm.name }],
      ['cucm_download_ris_toolkit', { host: cucm.name }],
    ] as const) {
      const r = await s.fails('admin', tool, args);
      assert.equal(r.error, 'ConnectivityError', `${tool}: ${r.message}`);
      assert.match(r.message, /is not issued by the pinned CA SHA-256 [0-9A-F:]{95} \(UC MCP Lab CA/, tool);
      assert.ok(r.message.includes(`presented SHA-256 ${now.fingerprint256}`), r.message);
    }
    const check = await s.ok('admin', 'cucm_check_connectivity', { host: cucm.name });
    const axl = (check.services as Record<string, { ok: boolean; error?: string; reason?: string }>).axl;
    assert.equal(axl?.ok, false);
    assert.equal(axl?.error, 'ConnectivityError');
    assert.ok(String(axl?.reason).includes(now.fingerprint256));
  });

  it('a renewal by the pinned CA is accepted (the CA, not the certificate, is what was pinned)', async () => {
    s.lab.state.hostile.set({ certificate: 'same-ca' }, [cucm.name]);
    const r = await s.ok('admin', 'cucm_get_version', { host: cucm.name });
    assert.match(String(r.version), /^15\.0/);
    s.lab.state.hostile.clear();
  });
});
