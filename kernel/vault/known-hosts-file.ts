import { z } from 'zod';
import { SSHError } from '../errors/index.ts';
import { readAuthenticated, storeMacKey, writeAuthenticated } from './authenticated-json.ts';
import { FINGERPRINT_PATTERN } from './fingerprint.ts';

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

const bodySchema = z.strictObject({
  format: z.literal(KNOWN_HOSTS_FORMAT),
  version: z.literal(KNOWN_HOSTS_VERSION),
  client: z.string(),
  hosts: z.record(z.string(), entrySchema),
});
type Body = z.infer<typeof bodySchema>;

export interface KnownHosts {
  hosts: Record<string, HostEntry>;
}

/**
 * A key, derived from the vault master secret without the slow KDF (host-key checks are synchronous
 * and happen on every new SSH connection), that authenticates a client's known_hosts file: pinning
 * an attacker's key needs the master secret, not just write access to clients/.
 */
export function knownHostsMacKey(master: Uint8Array, client: string): Buffer {
  return storeMacKey(master, 'uc-mcp known_hosts v1', client);
}

/** clients/<client>/vault/known_hosts.json, HMAC-SHA256 over its body, written atomically. */
export class KnownHostsFile {
  readonly #macKey: Buffer;

  constructor(
    readonly path: string,
    private readonly client: string,
    macKey: Buffer,
  ) {
    this.#macKey = macKey;
  }

  read(): KnownHosts {
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

  write(known: KnownHosts): void {
    const body: Body = {
      format: KNOWN_HOSTS_FORMAT,
      version: KNOWN_HOSTS_VERSION,
      client: this.client,
      hosts: known.hosts,
    };
    writeAuthenticated(this.path, this.#macKey, body);
  }

  // Fail closed: without a trustworthy record no SSH connection of this client proceeds.
  private unusable(why: string): SSHError {
    return new SSHError(
      `the SSH known-hosts store of client ${this.client} cannot be used: ${why}; no SSH connection is made`,
    );
  }
}
