// Replacement HTTPS certificates for the certificate attack, made in memory (never written to the lab's
// state) and kept per node, kind and signer, so switching back and forth presents the same one each time.
// 'same-ca' is a renewal by whoever signed the served certificate: the lab CA, or, for a node whose
// certificate is self-signed, the node itself (a regenerated self-signed certificate, same subject).
import forge from 'node-forge';
import type { LabCa } from '../tls/lab-ca.ts';
import { altNames, newCertificate, newRsaKeyPem } from '../tls/lab-ca.ts';
import { subjectAttributes, type NodeSubject } from '../tls/node-cert.ts';
import type { CertificateAttack } from './switches.ts';

export interface KeyAndCertificate {
  certPem: string;
  keyPem: string;
}

const made = new Map<string, KeyAndCertificate>();

export function replacementCertificate(
  attack: CertificateAttack,
  ca: LabCa | undefined,
  node: string,
  nodeSubject: NodeSubject,
  names: string[],
): KeyAndCertificate {
  const id = `${node}\0${attack}\0${ca ? 'ca' : 'self'}`;
  const known = made.get(id);
  if (known) return known;
  const keyPem = newRsaKeyPem();
  const key = forge.pki.privateKeyFromPem(keyPem);
  const cert = newCertificate(key, 30);
  const renewal = attack === 'same-ca';
  const subject = renewal
    ? subjectAttributes(nodeSubject)
    : [
        { name: 'commonName', value: node },
        { name: 'organizationName', value: `uc-mcp-server lab (hostile: ${attack})` },
      ];
  cert.setSubject(subject);
  const issuer = renewal ? ca : undefined;
  const selfSigned = issuer === undefined;
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : subject);
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
  cert.sign(issuer ? issuer.key : key, forge.md.sha256.create());
  const pair = { certPem: forge.pki.certificateToPem(cert), keyPem };
  made.set(id, pair);
  return pair;
}
