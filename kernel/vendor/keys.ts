import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { promisify } from 'node:util';
import { MIN_RSA_BITS, PUBLISHER_ID } from '../integrity/publishers.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';

const generate = promisify(generateKeyPair);

export interface VendorKeyPair {
  privatePem: string;
  publicPem: string;
}

/** A new RSA-4096 vendor key pair (PKCS#8 private, SPKI public). Takes a second or more. */
export async function generateVendorKeyPair(): Promise<VendorKeyPair> {
  const { privateKey, publicKey } = await generate('rsa', { modulusLength: MIN_RSA_BITS });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * Writes `<id>.private.pem` (0600) and `<id>.pem` (the public key, named as manifests/publishers/
 * expects it) into `dir`. Refuses to overwrite either file: losing a vendor key cannot be undone.
 */
export function writeVendorKeyPair(
  dir: string,
  id: string,
  pair: VendorKeyPair,
): { privatePath: string; publicPath: string } {
  assertPublisherId(id);
  const privatePath = join(dir, `${id}.private.pem`);
  const publicPath = join(dir, `${id}.pem`);
  for (const p of [privatePath, publicPath])
    if (existsSync(p)) throw new Error(`${p} already exists; refusing to overwrite a key`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomic(privatePath, pair.privatePem, 0o600);
  writeFileAtomic(publicPath, pair.publicPem, 0o644);
  return { privatePath, publicPath };
}

/**
 * The vendor private key, from PEM text or from a file path. PEM text is accepted so that CI can pass
 * the key through a secret variable without writing it to disk.
 */
export function loadVendorPrivateKey(pemOrPath: string): KeyObject {
  const pem = pemOrPath.trimStart().startsWith('-----BEGIN') ? pemOrPath : readFileSync(pemOrPath, 'utf8');
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error('the vendor key must be an RSA key');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS)
    throw new Error(`the vendor key has ${bits} bits; at least ${MIN_RSA_BITS} required`);
  return key;
}

export function publicPemOf(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
}

/** Whether a PEM public key is the public half of `privateKey`. */
export function isPublicHalf(privateKey: KeyObject, publicPem: string | Buffer): boolean {
  try {
    const a = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
    const b = createPublicKey(publicPem).export({ type: 'spki', format: 'der' });
    return a.equals(b);
  } catch {
    return false;
  }
}

export function assertPublisherId(id: string): void {
  if (!PUBLISHER_ID.test(id)) throw new Error(`publisher id "${id}" must match ${PUBLISHER_ID.source}`);
}

/** Whether `path` is `root` or below it. */
export function isInside(path: string, root: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
