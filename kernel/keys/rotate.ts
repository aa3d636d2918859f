import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { promisify } from 'node:util';
import type { StatePaths } from '../paths.ts';
import { fsyncDir, writeFileAtomic } from '../store/atomic-file.ts';
import { RSA_MODULUS_BITS } from './rsa-keys.ts';

const generateKeyPairAsync = promisify(generateKeyPair);

/** Why a rotation could not start; the message is for the operator and never holds key material. */
export class RotationRefused extends Error {}

export interface RotationResult {
  /** Where the previous pair now lives (restores of older backups need the private one). */
  archivedPrivate: string;
  archivedPublic: string;
}

/** `YYYYMMDD` of the operator's local date: the spec's `rsa_private.pem.archived.<YYYYMMDD>`. */
export function archiveDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
}

/**
 * The archive names for a rotation on `date`. A second rotation on the same day must not overwrite the
 * first archive (it is the only key that opens the backups made in between), so `.2`, `.3`... follow;
 * private and public share the suffix so the pair stays recognisable.
 */
export function archivePaths(paths: StatePaths, date: string): RotationResult {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : `.${n}`;
    const archivedPrivate = `${paths.rsaPrivateKey}.archived.${date}${suffix}`;
    const archivedPublic = `${paths.rsaPublicKey}.archived.${date}${suffix}`;
    if (!existsSync(archivedPrivate) && !existsSync(archivedPublic))
      return { archivedPrivate, archivedPublic };
  }
}

/** Reads the pair being retired; a missing or unreadable private key stops the rotation before any change. */
export function currentPrivateKey(paths: StatePaths): KeyObject {
  if (!existsSync(paths.rsaPrivateKey)) {
    throw new RotationRefused(
      `${paths.rsaPrivateKey} does not exist: there is no key to rotate (the server generates one at its first start)`,
    );
  }
  try {
    return createPrivateKey(readFileSync(paths.rsaPrivateKey));
  } catch (err) {
    throw new RotationRefused(
      `${paths.rsaPrivateKey} is not a readable private key (${(err as Error).message}); ` +
        'rotation refused: restore the key from a backup first, or the backups it protects are lost',
    );
  }
}

/** Generates the replacement pair off the event loop (RSA-4096 takes seconds). */
export async function generateServerKeyPair(): Promise<{ privatePem: string; publicPem: string }> {
  const { privateKey, publicKey } = await generateKeyPairAsync('rsa', { modulusLength: RSA_MODULUS_BITS });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * Archives the current pair and installs `next` in its place. The order makes every crash point
 * recoverable by startup step 6 without losing a key:
 * 1. both archives are written (exclusive create, fsync): the old key is safe before anything changes;
 * 2. rsa_public.pem is removed: a private key alone is a state step 6 repairs (derives the public key);
 * 3. the new private key replaces the old one atomically (rename);
 * 4. the new public key is written.
 * A crash before 3 leaves the old private key (step 6 restores its public key); after 3, the new one.
 */
export function installRotatedPair(
  paths: StatePaths,
  current: KeyObject,
  next: { privatePem: string; publicPem: string },
  date: string,
): RotationResult {
  const archives = archivePaths(paths, date);
  const currentPrivatePem = readFileSync(paths.rsaPrivateKey);
  // The public archive is derived from the private key, so it is right even if rsa_public.pem was lost.
  const currentPublicPem = createPublicKey(current).export({ type: 'spki', format: 'pem' });
  writeExclusive(archives.archivedPrivate, currentPrivatePem);
  writeExclusive(archives.archivedPublic, Buffer.from(currentPublicPem));
  rmSync(paths.rsaPublicKey, { force: true });
  fsyncDir(dirname(paths.rsaPublicKey));
  writeFileAtomic(paths.rsaPrivateKey, next.privatePem, 0o600);
  writeFileAtomic(paths.rsaPublicKey, next.publicPem, 0o600);
  return archives;
}

function writeExclusive(path: string, data: Buffer): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    throw new RotationRefused(`cannot create ${basename(path)}: ${(err as Error).message}`);
  }
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDir(dirname(path));
}
