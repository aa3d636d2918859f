import { createHash } from 'node:crypto';
import { join } from 'node:path';
import forge from 'node-forge';
import { createStateFileOnce, readStateFile, writeStateFile } from './files.ts';
import type { LabCa } from './lab-ca.ts';
import { altNames, newCertificate, newRsaKeyPem } from './lab-ca.ts';

export interface NodeCertificate {
  certPem: string;
  keyPem: string;
  notBefore: Date;
  notAfter: Date;
  /** Hex, as `show cert own` prints it. */
  serial: string;
  /** `AB:CD:...`, SHA-256 of the DER, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string;
}

/** Who the certificate names: the node's FQDN as CN, and the rest of the subject its CLI prints. */
export interface NodeSubject {
  /** `hostname.domain`, as a VOS node puts it in the CN of its own certificates. */
  fqdn: string;
}

const DAY = 86_400_000;
/**
 * Lifetime of a certificate a node generates for itself. VOS lets the administrator choose it when
 * regenerating; five years is the usual figure seen on installed nodes (no public Cisco source states
 * the default, so this is an assumption of the lab).
 */
const SELF_SIGNED_LIFETIME_DAYS = 5 * 365;

/**
 * The HTTPS (Tomcat) certificate of one node for `names`, with `validDays` left: self-signed by the
 * node's own key (`ca` undefined, as installed), or issued by the lab CA. Its validity began as long
 * ago as a certificate of its lifetime would have (a self-signed one expiring in 10 days was made
 * almost five years ago), so what `show cert own tomcat` prints is what the node serves. The key and
 * certificate persist in `stateDir/tls`; the certificate is reissued (same key) when its signer, the
 * names or the wanted lifetime changed, so a short-lived certificate (the weak profile's "expires in
 * 10 days") stays short-lived across restarts.
 */
export function loadOrIssueNodeCert(
  stateDir: string,
  ca: LabCa | undefined,
  nodeName: string,
  subject: NodeSubject,
  names: string[],
  validDays: number,
): NodeCertificate {
  // One file per signer: two labs on one state directory in different modes do not reissue each other's.
  const certPath = join(stateDir, 'tls', `${nodeName}-${ca ? 'cert' : 'self-signed'}.pem`);
  const keyPath = join(stateDir, 'tls', `${nodeName}-key.pem`);
  const keyPem = readStateFile(keyPath) ?? createStateFileOnce(keyPath, newRsaKeyPem());
  const key = forge.pki.privateKeyFromPem(keyPem);
  const existing = readStateFile(certPath);
  if (existing !== undefined && isStillGood(existing, ca, key, subject, names, validDays)) {
    return described(existing, keyPem);
  }
  const cert = newCertificate(key, validDays);
  const lifetime = ca ? validDays : Math.max(validDays, SELF_SIGNED_LIFETIME_DAYS);
  cert.validity.notBefore = new Date(cert.validity.notAfter.getTime() - lifetime * DAY);
  const attrs = subjectAttributes(subject);
  cert.setSubject(attrs);
  cert.setIssuer(ca ? ca.cert.subject.attributes : attrs);
  cert.setExtensions([
    // A self-signed certificate is its own trust anchor: peers import it into their trust store, so
    // it says CA and certificate signing, as the nodes' own certificates do.
    { name: 'basicConstraints', cA: !ca, critical: true },
    {
      name: 'keyUsage',
      digitalSignature: true,
      keyEncipherment: true,
      dataEncipherment: true,
      keyCertSign: !ca,
      critical: true,
    },
    { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
    { name: 'subjectAltName', altNames: altNames(names) },
  ]);
  cert.sign(ca ? ca.key : key, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  writeStateFile(certPath, certPem, 0o644);
  return described(certPem, keyPem);
}

/**
 * The subject a VOS node gives its own certificates: the organisation details entered at install,
 * and the FQDN as CN. Same values as `show cert own tomcat` prints (lab/vos/commands/show.ts).
 */
export function subjectAttributes(subject: NodeSubject): forge.pki.CertificateField[] {
  return [
    { name: 'countryName', value: 'US' },
    { name: 'stateOrProvinceName', value: 'NC' },
    { name: 'localityName', value: 'RTP' },
    { name: 'organizationName', value: 'Lab' },
    { shortName: 'OU', value: 'UC Lab' },
    { name: 'commonName', value: subject.fqdn },
  ];
}

/** SHA-256 of a certificate's DER in `AB:CD:...` form. */
export function certFingerprint(certPem: string): string {
  const der = Buffer.from(
    forge.asn1.toDer(forge.pki.certificateToAsn1(forge.pki.certificateFromPem(certPem))).getBytes(),
    'binary',
  );
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)?.join(':') ?? '';
}

function described(certPem: string, keyPem: string): NodeCertificate {
  const cert = forge.pki.certificateFromPem(certPem);
  return {
    certPem,
    keyPem,
    notBefore: cert.validity.notBefore,
    notAfter: cert.validity.notAfter,
    serial: cert.serialNumber,
    fingerprint: certFingerprint(certPem),
  };
}

function isStillGood(
  pem: string,
  ca: LabCa | undefined,
  key: forge.pki.rsa.PrivateKey,
  subject: NodeSubject,
  names: string[],
  validDays: number,
): boolean {
  try {
    const cert = forge.pki.certificateFromPem(pem);
    if (!(cert.publicKey as forge.pki.rsa.PublicKey).n.equals(key.n)) return false;
    if (ca ? !ca.cert.verify(cert) : !cert.verify(cert)) return false;
    if (cert.subject.getField('CN')?.value !== subject.fqdn) return false;
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
