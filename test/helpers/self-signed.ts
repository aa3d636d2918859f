import {
  certificateSkeleton,
  newRsaKey,
  signSha256,
  subjectAltName,
  type CertificatePair,
} from '../../kernel/tls/forge-cert.ts';

export type { CertificatePair } from '../../kernel/tls/forge-cert.ts';

/**
 * A self-signed server certificate for `names` (DNS names and IP addresses become the matching SAN
 * types). The server issues its own certificate from its local CA (local-ca.ts); a standalone pair
 * is for an endpoint a client pins on its own (the tests' stand-in nodes, phones and documents).
 */
export function generateSelfSigned(names: string[], days: number, commonName: string): CertificatePair {
  const { key, keyPem } = newRsaKey();
  const now = Date.now();
  const cert = certificateSkeleton(key, now, new Date(now + days * 86_400_000));
  const subject = [
    { name: 'commonName', value: commonName.slice(0, 64) },
    { name: 'organizationName', value: 'uc-mcp-server (self-signed)' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    subjectAltName(names),
  ]);
  return { certPem: signSha256(cert, keyPem), keyPem };
}
