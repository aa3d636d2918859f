import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Reads a state file, or undefined when it does not exist yet. */
export function readStateFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes through a temporary file and a rename, so that two labs starting at once on the same state
 * directory (parallel test files) each read a whole file, never half of one.
 */
export function writeStateFile(path: string, content: string, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, content, { mode });
  renameSync(tmp, path);
}

/**
 * Creates a state file only if it does not exist yet, and returns what the file holds afterwards: ours,
 * or the one a concurrent lab created first. Keys and the CA go through here so that labs started at
 * the same time on one state directory end up with the same identity.
 */
export function createStateFileOnce(path: string, content: string, mode = 0o600): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, content, { mode });
  try {
    linkSync(tmp, path);
    return content;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(path, 'utf8');
  } finally {
    unlinkSync(tmp);
  }
}
