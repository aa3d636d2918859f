import { z } from 'zod';
import { SSHError } from '../errors/index.ts';
import { storeMacKey } from './authenticated-json.ts';
import { FINGERPRINT_PATTERN } from './fingerprint.ts';
import { TrustStoreFile, type TrustStoreContent } from './trust-store-file.ts';

export const KNOWN_HOSTS_FORMAT = 'uc-mcp-known-hosts';
export const KNOWN_HOSTS_VERSION = 1;
/** Rejected keys remembered per host; the oldest are forgotten (they would show as new again). */
export const MAX_REJECTED_PER_HOST = 16;

const fingerprint = z.string().regex(FINGERPRINT_PATTERN);
const seenKey = z.strictObject({
  fingerprint,
  keyType: z.string().max(64).optional(),
  at: z.string().max(40),
});

const entrySchema = z.strictObject({
  /** The trusted key: connections presenting it proceed. */
  pinned: seenKey.optional(),
  /** The last key presented that nobody has decided on yet (first contact, or a changed key). */
  pending: seenKey.optional(),
  rejected: z.array(z.strictObject({ fingerprint, at: z.string().max(40) })).max(MAX_REJECTED_PER_HOST),
});
export type HostEntry = z.infer<typeof entrySchema>;
export type SeenKey = z.infer<typeof seenKey>;

export type KnownHosts = TrustStoreContent<HostEntry>;

/**
 * A key, derived from the vault master secret without the slow KDF (host-key checks are synchronous
 * and happen on every new SSH connection), that authenticates a client's known_hosts file: pinning
 * an attacker's key needs the master secret, not just write access to clients/.
 */
export function knownHostsMacKey(master: Uint8Array, client: string): Buffer {
  return storeMacKey(master, 'uc-mcp known_hosts v1', client);
}

/** clients/<client>/vault/known_hosts.json, HMAC-SHA256 over its body, written atomically. */
export class KnownHostsFile extends TrustStoreFile<HostEntry> {
  constructor(path: string, client: string, macKey: Buffer) {
    super(path, client, macKey, {
      format: KNOWN_HOSTS_FORMAT,
      version: KNOWN_HOSTS_VERSION,
      entry: entrySchema,
      // Fail closed: without a trustworthy record no SSH connection of this client proceeds.
      unusable: (c, why) =>
        new SSHError(
          `the SSH known-hosts store of client ${c} cannot be used: ${why}; no SSH connection is made`,
        ),
    });
  }
}
