import { z } from 'zod';
import { ConnectivityError } from '../errors/index.ts';
import { readAuthenticated, storeMacKey, writeAuthenticated } from './authenticated-json.ts';

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

const bodySchema = z.strictObject({
  format: z.literal(KNOWN_CERTIFICATES_FORMAT),
  version: z.literal(KNOWN_CERTIFICATES_VERSION),
  client: z.string(),
  hosts: z.record(z.string(), entrySchema),
});
type Body = z.infer<typeof bodySchema>;

export interface KnownCertificates {
  hosts: Record<string, CertificateEntry>;
}

/** The key authenticating a client's known_certificates file (see authenticated-json.ts). */
export function knownCertificatesMacKey(master: Uint8Array, client: string): Buffer {
  return storeMacKey(master, 'uc-mcp known_certificates v1', client);
}

/**
 * clients/<client>/vault/known_certificates.json: the HTTPS certificates a client trusted (or rejected)
 * on first contact, per product and host, HMAC-SHA256 over its body like known_hosts.json.
 */
export class KnownCertificatesFile {
  readonly #macKey: Buffer;

  constructor(
    readonly path: string,
    private readonly client: string,
    macKey: Buffer,
  ) {
    this.#macKey = macKey;
  }

  read(): KnownCertificates {
    const raw = readAuthenticated(this.path, this.#macKey, (p) =>
      this.unusable(
        p === 'unparsable'
          ? 'it does not parse'
          : p === 'mac'
            ? 'its integrity check failed (edited outside the server, or another master secret)'
            : `it cannot be read (${p.unreadable})`,
      ),
    );
    if (raw === undefined) return { hosts: {} };
    const body = bodySchema.safeParse(raw);
    if (!body.success || body.data.client !== this.client) throw this.unusable('unexpected content');
    return { hosts: body.data.hosts };
  }

  write(known: KnownCertificates): void {
    const body: Body = {
      format: KNOWN_CERTIFICATES_FORMAT,
      version: KNOWN_CERTIFICATES_VERSION,
      client: this.client,
      hosts: known.hosts,
    };
    writeAuthenticated(this.path, this.#macKey, body);
  }

  // Fail closed: without a trustworthy record no certificate of this client is trusted.
  private unusable(why: string): ConnectivityError {
    return new ConnectivityError(
      `the trusted-certificate store of client ${this.client} cannot be used: ${why}; no HTTPS connection relying on it is made`,
    );
  }
}
