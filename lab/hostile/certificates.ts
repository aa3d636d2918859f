// Replacement HTTPS certificates for the certificate attack, made in memory (never written to the lab's
// state) and kept per node and kind, so switching back and forth presents the same one each time.
import { isIP } from 'node:net';
import forge from 'node-forge';
import type { LabCa } from '../tls/lab-ca.ts';
import { newRsaKeyPem, randomSerial } from '../tls/lab-ca.ts';
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
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = randomSerial();
  cert.validity.notBefore = new Date(Date.now() - 5 * 60_000);
  cert.validity.notAfter = new Date(Date.now() + 30 * 86_400_000);
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
    {
      name: 'subjectAltName',
      altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
    },
  ]);
  cert.sign(selfSigned ? key : ca.key, forge.md.sha256.create());
  const pair = { certPem: forge.pki.certificateToPem(cert), keyPem };
  made.set(id, pair);
  return pair;
}
