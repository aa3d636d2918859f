import { z } from 'zod';
import { ConnectivityError } from '../errors/index.ts';
import { storeMacKey } from './authenticated-json.ts';
import { TrustStoreFile, type TrustStoreContent } from './trust-store-file.ts';

export const KNOWN_CERTIFICATES_FORMAT = 'uc-mcp-known-certificates';
export const KNOWN_CERTIFICATES_VERSION = 1;
/** Rejected certificates remembered per host; the oldest are forgotten (they would show as new again). */
export const MAX_REJECTED_CERTIFICATES = 16;
/** `AB:CD:...`: SHA-256 of the DER, upper-case hex pairs, as `openssl x509 -fingerprint -sha256` prints it. */
export const CERT_FINGERPRINT_PATTERN = /^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$/;

const fingerprint = z.string().regex(CERT_FINGERPRINT_PATTERN);
const seenCertificate = z.strictObject({
  fingerprint,
  /** The certificate itself: a pinned one is what TLS verification trusts, as a credential's cert_pem. */
  pem: z.string().max(16_384),
  at: z.string().max(40),
});

const entrySchema = z.strictObject({
  /** The trusted certificate: connections presenting exactly it proceed. */
  pinned: seenCertificate.optional(),
  /** The last certificate presented that nobody has decided on yet (first contact, or a changed one). */
  pending: seenCertificate.optional(),
  /** Rejected ones keep their certificate, so that a decision can be reversed without a new contact. */
  rejected: z
    .array(z.strictObject({ fingerprint, pem: z.string().max(16_384).optional(), at: z.string().max(40) }))
    .max(MAX_REJECTED_CERTIFICATES),
});
export type CertificateEntry = z.infer<typeof entrySchema>;
export type SeenCertificate = z.infer<typeof seenCertificate>;

export type KnownCertificates = TrustStoreContent<CertificateEntry>;

/** The key authenticating a client's known_certificates file (see authenticated-json.ts). */
export function knownCertificatesMacKey(master: Uint8Array, client: string): Buffer {
  return storeMacKey(master, 'uc-mcp known_certificates v1', client);
}

/**
 * clients/<client>/vault/known_certificates.json: the HTTPS certificates a client trusted (or rejected)
 * on first contact, per product and host, HMAC-SHA256 over its body like known_hosts.json.
 */
export class KnownCertificatesFile extends TrustStoreFile<CertificateEntry> {
  constructor(path: string, client: string, macKey: Buffer) {
    super(path, client, macKey, {
      format: KNOWN_CERTIFICATES_FORMAT,
      version: KNOWN_CERTIFICATES_VERSION,
      entry: entrySchema,
      // Fail closed: without a trustworthy record no certificate of this client is trusted.
      unusable: (c, why) =>
        new ConnectivityError(
          `the trusted-certificate store of client ${c} cannot be used: ${why}; no HTTPS connection relying on it is made`,
        ),
    });
  }
}
