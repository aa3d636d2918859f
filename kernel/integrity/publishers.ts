import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { PUBLISHERS_DIR } from './tree.ts';

/** A publisher id names its key file `manifests/publishers/<id>.pem` and is the license's `kid`. */
export const PUBLISHER_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** The spec's vendor key size; a smaller key is refused rather than trusted. */
export const MIN_RSA_BITS = 4096;

export interface PublisherKey {
  id: string;
  key: KeyObject;
  /** POSIX path relative to the project root. */
  path: string;
  /** SHA-256 of the SubjectPublicKeyInfo DER, hex: what an operator compares out of band. */
  fingerprint: string;
  /** True when a valid manifest lists this key file and its hash matches: only then is it a trust root. */
  vouched: boolean;
}

export interface KeyProblem {
  path: string;
  reason: string;
}

/** Parses a publisher public key and refuses anything but RSA of at least 4096 bits. */
export function parsePublisherKey(pem: string | Buffer): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`not an RSA key (${key.asymmetricKeyType ?? '?'})`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) throw new Error(`RSA key of ${bits} bits; at least ${MIN_RSA_BITS} required`);
  return key;
}

export function keyFingerprint(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/**
 * Every `<id>.pem` in `manifests/publishers/` below `root`, with `vouched` false: the caller decides,
 * from the manifest, which of them to trust. Files that are not usable keys come back as problems.
 */
export async function readPublisherKeys(
  root: string,
): Promise<{ keys: PublisherKey[]; problems: KeyProblem[] }> {
  const keys: PublisherKey[] = [];
  const problems: KeyProblem[] = [];
  let names: string[];
  try {
    names = (await readdir(join(root, PUBLISHERS_DIR))).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { keys, problems };
    throw err;
  }
  for (const name of names) {
    if (!name.endsWith('.pem')) continue;
    const path = posix.join(PUBLISHERS_DIR, name);
    const id = name.slice(0, -'.pem'.length);
    if (!PUBLISHER_ID.test(id)) {
      problems.push({ path, reason: `file name is not a publisher id (${PUBLISHER_ID.source})` });
      continue;
    }
    try {
      const key = parsePublisherKey(await readFile(join(root, path)));
      keys.push({ id, key, path, fingerprint: keyFingerprint(key), vouched: false });
    } catch (err) {
      problems.push({ path, reason: (err as Error).message });
    }
  }
  return { keys, problems };
}
