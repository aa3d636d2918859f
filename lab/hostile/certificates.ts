// Replacement HTTPS certificates for the certificate attack, made in memory (never written to the lab's
// state) and kept per node and kind, so switching back and forth presents the same one each time.
import forge from 'node-forge';
import type { LabCa } from '../tls/lab-ca.ts';
import { altNames, newCertificate, newRsaKeyPem } from '../tls/lab-ca.ts';
import type { CertificateAttack } from './switches.ts';

export interface KeyAndCertificate {
  certPem: string;
  keyPem: string;
}

const made = new Map<string, KeyAndCertificate>();

export function replacementCertificate(
  attack: CertificateAttack,
  ca: LabCa,
  node: string,
  names: string[],
): KeyAndCertificate {
  const id = `${node}\0${attack}`;
  const known = made.get(id);
  if (known) return known;
  const keyPem = newRsaKeyPem();
  const key = forge.pki.privateKeyFromPem(keyPem);
  const cert = newCertificate(key, 30);
  const subject = [
    { name: 'commonName', value: node },
    { name: 'organizationName', value: `uc-mcp-server lab (hostile: ${attack})` },
  ];
  cert.setSubject(subject);
  const selfSigned = attack !== 'same-ca';
  cert.setIssuer(selfSigned ? subject : ca.cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: selfSigned, critical: true },
    {
      name: 'keyUsage',
      digitalSignature: true,
      keyEncipherment: true,
      keyCertSign: selfSigned,
      critical: true,
    },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: altNames(names) },
  ]);
  cert.sign(selfSigned ? key : ca.key, forge.md.sha256.create());
  const pair = { certPem: forge.pki.certificateToPem(cert), keyPem };
  made.set(id, pair);
  return pair;
}
