import { join } from 'node:path';
import forge from 'node-forge';
import { createStateFileOnce, readStateFile, writeStateFile } from './files.ts';
import type { LabCa } from './lab-ca.ts';
import { altNames, newCertificate, newRsaKeyPem } from './lab-ca.ts';

export interface NodeCertificate {
  certPem: string;
  keyPem: string;
  notAfter: Date;
}

const DAY = 86_400_000;

/**
 * The server certificate of one node, issued by the lab CA for `names` and valid `validDays` from now.
 * The key and certificate persist in `stateDir/tls`; the certificate is reissued (same key) when the CA,
 * the names or the wanted lifetime changed, so a short-lived certificate (the weak profile's "expires in
 * 10 days") stays short-lived across restarts.
 */
export function loadOrIssueNodeCert(
  stateDir: string,
  ca: LabCa,
  nodeName: string,
  names: string[],
  validDays: number,
): NodeCertificate {
  const certPath = join(stateDir, 'tls', `${nodeName}-cert.pem`);
  const keyPath = join(stateDir, 'tls', `${nodeName}-key.pem`);
  const keyPem = readStateFile(keyPath) ?? createStateFileOnce(keyPath, newRsaKeyPem());
  const key = forge.pki.privateKeyFromPem(keyPem);
  const existing = readStateFile(certPath);
  if (existing !== undefined && isStillGood(existing, ca, key, names, validDays)) {
    return { certPem: existing, keyPem, notAfter: forge.pki.certificateFromPem(existing).validity.notAfter };
  }
  const cert = newCertificate(key, validDays);
  cert.setSubject([
    { name: 'commonName', value: nodeName },
    { name: 'organizationName', value: 'uc-mcp-server lab' },
  ]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: altNames(names) },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  writeStateFile(certPath, certPem, 0o644);
  return { certPem, keyPem, notAfter: cert.validity.notAfter };
}

function isStillGood(
  pem: string,
  ca: LabCa,
  key: forge.pki.rsa.PrivateKey,
  names: string[],
  validDays: number,
): boolean {
  try {
    const cert = forge.pki.certificateFromPem(pem);
    if (!(cert.publicKey as forge.pki.rsa.PublicKey).n.equals(key.n)) return false;
    if (!ca.cert.verify(cert)) return false;
    const san = cert.getExtension('subjectAltName') as {
      altNames?: { value?: string; ip?: string }[];
    } | null;
    const present = new Set((san?.altNames ?? []).map((a) => a.ip ?? a.value ?? ''));
    if (!names.every((n) => present.has(n)) || present.size !== names.length) return false;
    const remaining = cert.validity.notAfter.getTime() - Date.now();
    // A short lifetime is the point of the certificate (an expiry finding): keep it within a day of
    // what was asked. A long one only needs to stay comfortably valid.
    if (validDays <= 30) return remaining <= validDays * DAY && remaining >= (validDays - 1) * DAY;
    return remaining >= 30 * DAY;
  } catch {
    return false;
  }
}
