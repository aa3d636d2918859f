// The integrity check shared by the client's trust stores (SSH known hosts, pinned HTTPS certificates):
// `{ body, mac }` with HMAC-SHA256 over the body's JSON, keyed from the vault master secret without the
// slow KDF (the checks are synchronous and run on every new connection). Pinning an attacker's key or
// certificate needs the master secret, not just write access to clients/.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeJsonAtomic } from '../store/atomic-file.ts';

/** A per-client key for one store, `label` naming the store (and its version). */
export function storeMacKey(master: Uint8Array, label: string, client: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `${label}\0${client}`, 32));
}

/** Why a store cannot be used: unreadable, unparsable, or its MAC does not match. */
export type StoreProblem = { unreadable: string } | 'unparsable' | 'mac';

/**
 * The body of the file at `path` once its MAC matches; undefined when there is no file yet. Throws
 * `problem(...)`'s error otherwise (fail closed: no trust without a trustworthy record).
 */
export function readAuthenticated(path: string, key: Buffer, problem: (p: StoreProblem) => Error): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw problem({ unreadable: (err as NodeJS.ErrnoException).code ?? 'error' });
  }
  let raw: { body?: unknown; mac?: unknown };
  try {
    raw = JSON.parse(text) as typeof raw;
  } catch {
    throw problem('unparsable');
  }
  if (typeof raw?.mac !== 'string' || !macMatches(key, JSON.stringify(raw.body), raw.mac))
    throw problem('mac');
  return raw.body;
}

/** Writes `{ body, mac }` atomically, readable by the owner only. */
export function writeAuthenticated(path: string, key: Buffer, body: unknown): void {
  writeJsonAtomic(path, { body, mac: mac(key, JSON.stringify(body)) }, 0o600);
}

function mac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64');
}

function macMatches(key: Buffer, text: string, given: string): boolean {
  const expected = Buffer.from(mac(key, text), 'base64');
  const actual = Buffer.from(given, 'base64');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
