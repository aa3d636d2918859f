import { X509Certificate, createPrivateKey } from 'node:crypto';
import forge from 'node-forge';
import {
  certificateSkeleton,
  newRsaKey,
  signSha256,
  subjectAltName,
  type CertificatePair,
} from './forge-cert.ts';
import {
  NAME_CONSTRAINTS_OID,
  nameConstraintsExtension,
  permits,
  readPermitted,
} from './name-constraints.ts';

// The server's own certificate authority. Users trust its certificate (secrets/ca_cert.pem) once, in
// their system store or NODE_EXTRA_CA_CERTS, and every leaf the server issues and renews afterwards is
// trusted with verification on. It can issue nothing but end-entity certificates (path length 0) and,
// by DNS name, only for the server's names (name constraints; addresses are left unconstrained, see
// name-constraints.ts), so trusting it exposes no other site's name.

const DAY = 86_400_000;
/** Ten years, or twice the leaf lifetime if that is longer, so a renewal rarely needs a new CA. */
export const caDays = (leafDays: number): number => Math.max(3650, 2 * leafDays);

export interface LocalCa extends CertificatePair {
  cert: forge.pki.Certificate;
  x509: X509Certificate;
}

/** A new CA whose name constraints permit exactly the DNS names among `names` (and any address). */
export function createLocalCa(names: string[], commonName: string, days: number, now = Date.now()): LocalCa {
  const { key, keyPem } = newRsaKey();
  const cert = certificateSkeleton(key, now, new Date(now + days * DAY));
  // A random tag keeps two installations' CAs apart in a trust store that lists them by name.
  const subject = [
    { name: 'commonName', value: `${commonName.slice(0, 40)} local CA ${cert.serialNumber.slice(0, 8)}` },
    { name: 'organizationName', value: 'uc-mcp-server' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    nameConstraintsExtension(names),
  ]);
  return parseLocalCa(signSha256(cert, keyPem), keyPem);
}

/** Reads a CA pair; throws when either half does not parse, they do not match, or it is not a CA. */
export function parseLocalCa(certPem: string, keyPem: string): LocalCa {
  const x509 = new X509Certificate(certPem);
  if (!x509.ca) throw new Error('the certificate is not a CA certificate');
  if (!x509.checkPrivateKey(createPrivateKey(keyPem)))
    throw new Error('the key does not match the certificate');
  return {
    certPem,
    keyPem,
    x509,
    cert: forge.pki.certificateFromPem(certPem),
  };
}

/**
 * Why `ca` cannot issue a leaf for `names` valid until `until`, or null when it can: the CA must
 * outlive the leaf and its name constraints must permit every name.
 */
export function cannotIssue(ca: LocalCa, names: string[], until: number): string | null {
  if (new Date(ca.x509.validTo).getTime() < until) return 'it expires before a new certificate would';
  const ext = ca.cert.extensions.find((e: { id?: string }) => e.id === NAME_CONSTRAINTS_OID) as
    { value?: string } | undefined;
  if (!ext?.value) return 'it has no name constraints';
  let permitted;
  try {
    permitted = readPermitted(ext.value);
  } catch (err) {
    return `its name constraints are not the server's (${(err as Error).message})`;
  }
  const outside = names.filter((n) => !permits(permitted, n));
  return outside.length > 0 ? `its name constraints do not permit ${outside.join(', ')}` : null;
}

/** A server certificate for `names` signed by the CA, valid `days` from now. */
export function issueLeaf(
  ca: LocalCa,
  names: string[],
  days: number,
  commonName: string,
  now = Date.now(),
): CertificatePair {
  const { key, keyPem } = newRsaKey();
  const cert = certificateSkeleton(key, now, new Date(now + days * DAY));
  cert.setSubject([
    { name: 'commonName', value: commonName.slice(0, 64) },
    { name: 'organizationName', value: 'uc-mcp-server' },
  ]);
  cert.setIssuer(ca.cert.subject.attributes);
  const caKeyId = (
    ca.cert.getExtension('subjectKeyIdentifier') as { subjectKeyIdentifier?: string } | undefined
  )?.subjectKeyIdentifier;
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    subjectAltName(names),
    { name: 'subjectKeyIdentifier' },
    ...(caKeyId ? [{ name: 'authorityKeyIdentifier', keyIdentifier: forge.util.hexToBytes(caKeyId) }] : []),
  ]);
  return { certPem: signSha256(cert, ca.keyPem), keyPem };
}

/** Whether `leafPem` (its first certificate) was signed by `ca`. */
export function issuedBy(leafPem: string, ca: LocalCa): boolean {
  const leaf = new X509Certificate(leafPem);
  return leaf.checkIssued(ca.x509) && leaf.verify(ca.x509.publicKey);
}
