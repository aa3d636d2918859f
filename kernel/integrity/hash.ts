import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { TreeEntry } from './tree.ts';

const CHUNK = 1 << 20;
/** Files hashed in parallel: enough to keep the disk busy, few enough not to exhaust descriptors. */
const CONCURRENCY = 16;

export const SHA512_HEX = /^[0-9a-f]{128}$/;

/**
 * No following a link and no waiting on a FIFO: the file was listed as a regular file, and one swapped
 * for something else since must fail fast instead of leading the hash elsewhere or hanging the check.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** SHA-512 hex of a file, read in 1 MiB chunks into one reused buffer (memory stays flat for big files). */
export async function sha512File(path: string, buffer: Buffer = Buffer.allocUnsafe(CHUNK)): Promise<string> {
  const hash = createHash('sha512');
  const fh = await open(path, OPEN_FLAGS);
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

export interface HashProgress {
  done: number;
  total: number;
}

/**
 * Hashes the entries below `root`. A regular file maps to its SHA-512 hex; anything else maps to its
 * `irregular` description, and a file that cannot be read to `unreadable (<code>)`: neither ever equals
 * a hash, so neither can match a manifest entry. A file gone since it was listed is left out (missing).
 */
export async function hashEntries(
  root: string,
  entries: readonly TreeEntry[],
  onProgress?: (p: HashProgress) => void,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let i = next++; i < entries.length; i = next++) {
      const entry = entries[i] as TreeEntry;
      const value = entry.irregular ?? (await hashOrReason(join(root, entry.path), buffer));
      if (value !== null) out.set(entry.path, value);
      done += 1;
      onProgress?.({ done, total: entries.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, entries.length) }, worker));
  return out;
}

async function hashOrReason(path: string, buffer: Buffer): Promise<string | null> {
  try {
    return await sha512File(path, buffer);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return code === 'ENOENT' ? null : `unreadable (${code})`;
  }
}
