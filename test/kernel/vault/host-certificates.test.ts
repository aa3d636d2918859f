// HTTPS certificate trust on first use in the vault (ClientCertificates), on real certificates and
// the real store file: what is recorded, what may be decided, and that the store fails closed.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { BadRequestError, ConnectivityError } from '../../../kernel/errors/index.ts';
import { CertificateTrustError, normaliseCertFingerprint } from '../../../kernel/vault/index.ts';
import { loadOrCreateCa } from '../../../lab/tls/lab-ca.ts';
import { loadOrIssueNodeCert } from '../../../lab/tls/node-cert.ts';
import { generateSelfSigned } from '../../helpers/self-signed.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { vaultFixture } from './vault-fixture.ts';

describe('HTTPS certificates: trust on first use in the vault', () => {
  const fx = vaultFixture();
  const tls = tempStateDir('ucmcp-cert-tofu-');
  after(async () => {
    await fx.cleanup();
    tls.cleanup();
  });
  const own = generateSelfSigned(['cucm-pub', '127.0.0.1'], 30, 'cucm-pub.example.com').certPem;
  const fp = new X509Certificate(own).fingerprint256;
  const trustRecords = (): Record<string, unknown>[] =>
    fx.auditRecords().filter((r) => r.event === 'TRUSTED' && r.kind === 'https_certificate');

  it('records first contact as pending and reports the certificate, then trusts only what was presented', () => {
    const certs = fx.vault.forClient('noc-agent').certificates;
    const first = certs.refuse('cucm', 'cucm-pub', own);
    assert.ok(first instanceof CertificateTrustError && first instanceof ConnectivityError);
    assert.equal(first.reason, 'unknown');
    assert.equal(first.presented.fingerprint, fp);
    assert.equal(first.presented.self_signed, true);
    assert.match(first.presented.subject, /CN=cucm-pub\.example\.com/);
    assert.deepEqual(first.presented.subject_alt_names, ['DNS:cucm-pub', 'IP Address:127.0.0.1']);
    assert.ok(first.message.includes(fp), first.message);
    assert.equal(certs.refuse('cucm', 'cucm-pub', own)?.reason, 'pending');
    assert.equal(certs.pinned('cucm', 'cucm-pub'), undefined);

    const other = generateSelfSigned(['x'], 30, 'x').certPem;
    const before = trustRecords().length;
    assert.throws(
      () => certs.decide('cucm', 'cucm-pub', 'trust', new X509Certificate(other).fingerprint256),
      (err: unknown) => err instanceof BadRequestError && /is not a certificate/.test(err.message),
    );
    assert.throws(() => certs.decide('cucm', 'cucm-pub', 'trust', 'SHA256:abc'), BadRequestError);
    assert.deepEqual(
      trustRecords()
        .slice(before)
        .map((r) => [r.status, r.reason, 'action' in r]),
      [
        ['REFUSED', 'fingerprint_mismatch', false],
        ['REFUSED', 'invalid', false],
      ],
    );
    // As copied from elsewhere: lower case, no colons.
    const status = certs.decide('cucm', 'cucm-pub', 'trust', fp.replaceAll(':', '').toLowerCase());
    assert.equal(status.state, 'trusted');
    assert.equal(status.certificate?.fingerprint, fp);
    assert.equal(certs.pinned('cucm', 'CUCM-PUB')?.fingerprint, fp);
    assert.equal(new X509Certificate(certs.pinned('cucm', 'cucm-pub')?.pem as string).fingerprint256, fp);
    assert.equal(certs.refuse('cucm', 'cucm-pub', own), undefined, 'the pinned one is not refused here');
    // Per client and per product.
    assert.equal(fx.vault.forClient('other-agent').certificates.pinned('cucm', 'cucm-pub'), undefined);
    assert.equal(certs.pinned('imp', 'cucm-pub'), undefined);
    assert.deepEqual(
      trustRecords()
        .slice(-1)
        .map((r) => [r.status, r.action, r.fingerprint, r.client, r.host, r.product]),
      [['OK', 'trusted', fp, 'noc-agent', 'cucm-pub', 'cucm']],
    );
  });

  it('a certificate issued by a CA is not pinned alone: its CA belongs in ca_cert_pem', () => {
    const ca = loadOrCreateCa(tls.dir);
    const issued = loadOrIssueNodeCert(
      tls.dir,
      ca,
      'imp-pub',
      { fqdn: 'imp-pub.example.com' },
      ['imp-pub'],
      365,
    );
    const certs = fx.vault.forClient('noc-agent').certificates;
    const refused = certs.refuse('imp', 'imp-pub', issued.certPem);
    assert.equal(refused?.presented.self_signed, false);
    assert.match(refused?.message ?? '', /not self-signed[\s\S]*ca_cert_pem/);
    assert.throws(
      () => certs.decide('imp', 'imp-pub', 'trust', issued.fingerprint),
      (err: unknown) => err instanceof BadRequestError && /ca_cert_pem instead/.test(err.message),
    );
    assert.equal(certs.pinned('imp', 'imp-pub'), undefined);
  });

  it('the store is authenticated: an edited file refuses every check and decision', () => {
    const certs = fx.vault.forClient('noc-agent').certificates;
    const path = join(fx.paths.clients, 'noc-agent', 'vault', 'known_certificates.json');
    const saved = readFileSync(path, 'utf8');
    const doc = JSON.parse(saved) as {
      body: { hosts: Record<string, { pinned?: { fingerprint: string } }> };
    };
    const entry = doc.body.hosts['cucm/cucm-pub'];
    assert.ok(entry?.pinned);
    entry.pinned.fingerprint = normaliseCertFingerprint('00'.repeat(32)) as string;
    writeFileSync(path, JSON.stringify(doc));
    assert.throws(() => certs.pinned('cucm', 'cucm-pub'), /integrity check failed/);
    assert.throws(() => certs.decide('cucm', 'cucm-pub', 'reject', fp), /integrity check failed/);
    writeFileSync(path, saved);
    assert.equal(certs.pinned('cucm', 'cucm-pub')?.fingerprint, fp);
  });
});
