import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

// The pieces every certificate the server makes for itself shares (the local CA, its leaf, and the
// plain self-signed pair): an RSA key, a random serial, a validity window, subjectAltName entries.

export interface CertificatePair {
  certPem: string;
  keyPem: string;
}

/** RSA-2048: cheap to make at first start and in handshakes; the RSA-4096 server key is for tokens. */
export function newRsaKey(): { keyPem: string; key: forge.pki.rsa.PrivateKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return { keyPem, key: forge.pki.privateKeyFromPem(keyPem) };
}

/**
 * A certificate for `key`'s public half with a random serial, valid from five minutes before `now`
 * (a client whose clock is a little behind still accepts it) until `notAfter`. The caller sets the
 * subject, issuer and extensions, and signs it.
 */
export function certificateSkeleton(
  key: forge.pki.rsa.PrivateKey,
  now: number,
  notAfter: Date,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial: clear the top bit of the first byte.
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = new Date(now - 5 * 60_000);
  cert.validity.notAfter = notAfter;
  return cert;
}

/** subjectAltName for `names`: addresses as iPAddress entries, anything else as a dNSName. */
export function subjectAltName(names: string[]): { name: 'subjectAltName'; altNames: object[] } {
  return {
    name: 'subjectAltName',
    altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
  };
}

/**
 * Signs with SHA-256/RSA through node:crypto (forge builds the structure; its pure-JavaScript RSA
 * would take a tenth of a second per signature) and returns the certificate as PEM.
 */
export function signSha256(cert: forge.pki.Certificate, keyPem: string): string {
  const oid = forge.pki.oids.sha256WithRSAEncryption as string;
  cert.signatureOid = oid;
  cert.siginfo.algorithmOid = oid;
  // getTBSCertificate is public in forge but missing from its type declarations.
  const pki = forge.pki as unknown as { getTBSCertificate(c: forge.pki.Certificate): forge.asn1.Asn1 };
  const tbs = pki.getTBSCertificate(cert);
  (cert as unknown as { tbsCertificate: forge.asn1.Asn1 }).tbsCertificate = tbs;
  const der = Buffer.from(forge.asn1.toDer(tbs).getBytes(), 'binary');
  cert.signature = sign('sha256', der, createPrivateKey(keyPem)).toString('binary');
  // forge writes CRLF; system trust tools (update-ca-certificates, security, certutil) expect LF.
  return forge.pki.certificateToPem(cert).replace(/\r\n/g, '\n');
}
