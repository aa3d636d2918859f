import { createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';

/** The spec's key derivation (functional-spec.md, Limits): PBKDF2, 600,000 iterations, SHA-512. */
export const PBKDF2_ITERATIONS = 600_000;
export const PBKDF2_DIGEST = 'sha512';
/** nacl.secretbox takes a 32-byte key. */
export const DERIVED_KEY_BYTES = 32;
/** 128 bits, NIST SP 800-132's minimum; random per client. */
export const SALT_BYTES = 16;

const KEY_CHECK_LABEL = 'uc-mcp-vault key check v1';

export type DeriveFn = (master: Uint8Array, salt: Uint8Array) => Promise<Uint8Array>;

/**
 * One client's key. The asynchronous pbkdf2 runs on the libuv thread pool, so 0.5 s of hashing does
 * not stall the event loop (and with it every other client's request).
 */
export function deriveClientKey(master: Uint8Array, salt: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    pbkdf2(master, salt, PBKDF2_ITERATIONS, DERIVED_KEY_BYTES, PBKDF2_DIGEST, (err, key) => {
      if (err) reject(err);
      else resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength));
    });
  });
}

export function newSalt(): Buffer {
  return randomBytes(SALT_BYTES);
}

/**
 * A value stored beside the records that tells "this is not the key the file was sealed with"
 * (master secret replaced or restored from another installation) apart from "this record was
 * tampered with", and stops a wrong key from sealing new records into a file it cannot read.
 */
export function keyCheckValue(key: Uint8Array): string {
  return createHmac('sha256', key).update(KEY_CHECK_LABEL).digest('base64');
}

export function keyCheckMatches(key: Uint8Array, stored: string): boolean {
  const expected = Buffer.from(keyCheckValue(key), 'base64');
  const actual = Buffer.from(stored, 'base64');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

interface Entry {
  salt: string;
  key: Promise<Uint8Array>;
}

/**
 * Derived keys, memoised per client for the life of the process: the 600,000 iterations are paid
 * once, and concurrent first reads share the same pending derivation. Keyed by salt as well, so a
 * file restored with another salt gets its own key instead of a wrong cached one. Plaintext
 * credentials are never cached, only keys.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private count = 0;

  private readonly derive: DeriveFn;
  private readonly onDerived: ((client: string, ms: number) => void) | undefined;

  readonly #master: Uint8Array;

  constructor(
    master: Uint8Array,
    opts: { derive?: DeriveFn; onDerived?: (client: string, ms: number) => void } = {},
  ) {
    this.#master = master;
    this.derive = opts.derive ?? deriveClientKey;
    this.onDerived = opts.onDerived;
  }

  /** Derivations started so far (tests and the benchmark check "once per client"). */
  get derivations(): number {
    return this.count;
  }

  /** The client's key for a salt (base64, as stored in the file). */
  get(client: string, saltB64: string): Promise<Uint8Array> {
    const hit = this.entries.get(client);
    if (hit && hit.salt === saltB64) return hit.key;
    this.count++;
    const started = performance.now();
    const key = this.derive(this.#master, Buffer.from(saltB64, 'base64'));
    const entry: Entry = { salt: saltB64, key };
    this.entries.set(client, entry);
    key.then(
      () => this.onDerived?.(client, performance.now() - started),
      // A failed derivation must not poison the cache: the next call tries again.
      () => {
        if (this.entries.get(client) === entry) this.entries.delete(client);
      },
    );
    return key;
  }
}
