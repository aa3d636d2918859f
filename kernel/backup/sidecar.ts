// The SHA-512 sidecar beside each backup, in `sha512sum` format ("<hex>  <name>\n"), so an operator can
// also check a copy with `sha512sum -c backup_....tar.gz.enc.sha512` on any machine.

import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { BackupError } from './errors.ts';
import { sidecarOf } from './naming.ts';

export async function sha512File(path: string, onBytes?: (n: number) => void): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    onBytes?.(chunk.length);
  }
  return hash.digest('hex');
}

export function sidecarText(hexDigest: string, file: string): string {
  return `${hexDigest}  ${basename(file)}\n`;
}

/** Reads `<file>.sha512`; SIDECAR_MISSING or SIDECAR_MALFORMED when it cannot be used. */
export function readSidecar(file: string, sidecar = sidecarOf(file)): string {
  if (!existsSync(sidecar)) {
    throw new BackupError(
      'SIDECAR_MISSING',
      `the SHA-512 sidecar ${basename(sidecar)} is missing beside the archive`,
    );
  }
  const first = readFileSync(sidecar, 'utf8').split('\n')[0]?.trim() ?? '';
  const m = /^([0-9a-fA-F]{128})(?:\s+\*?(.+))?$/.exec(first);
  if (!m?.[1]) {
    throw new BackupError(
      'SIDECAR_MALFORMED',
      `the sidecar ${basename(sidecar)} does not hold a SHA-512 digest`,
    );
  }
  return m[1].toLowerCase();
}

/** Checks the archive against its sidecar; SIDECAR_MISMATCH names both digests' beginnings. */
export async function verifySidecar(
  file: string,
  opts: { sidecar?: string; onBytes?: (n: number) => void } = {},
): Promise<string> {
  const expected = readSidecar(file, opts.sidecar);
  const actual = await sha512File(file, opts.onBytes);
  if (actual !== expected) {
    throw new BackupError(
      'SIDECAR_MISMATCH',
      `the archive does not match its SHA-512 sidecar (expected ${expected.slice(0, 16)}..., got ${actual.slice(0, 16)}...): ` +
        'it is truncated, altered or not the file the sidecar was written for',
    );
  }
  return actual;
}
