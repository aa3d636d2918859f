import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SSHError } from '../errors/index.ts';
import { writeJsonAtomic } from '../store/atomic-file.ts';
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
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `uc-mcp known_hosts v1\0${client}`, 32));
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
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { hosts: {} };
      throw this.unusable(`it cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    let raw: { body?: unknown; mac?: unknown };
    try {
      raw = JSON.parse(text) as typeof raw;
    } catch {
      throw this.unusable('it does not parse');
    }
    if (typeof raw?.mac !== 'string' || !this.macMatches(JSON.stringify(raw.body), raw.mac)) {
      throw this.unusable('its integrity check failed (edited outside the server, or another master secret)');
    }
    const body = bodySchema.safeParse(raw.body);
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
    writeJsonAtomic(this.path, { body, mac: this.mac(JSON.stringify(body)) }, 0o600);
  }

  private mac(text: string): string {
    return createHmac('sha256', this.#macKey).update(text).digest('base64');
  }

  private macMatches(text: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(text), 'base64');
    const actual = Buffer.from(mac, 'base64');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  // Fail closed: without a trustworthy record no SSH connection of this client proceeds.
  private unusable(why: string): SSHError {
    return new SSHError(
      `the SSH known-hosts store of client ${this.client} cannot be used: ${why}; no SSH connection is made`,
    );
  }
}
