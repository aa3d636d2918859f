import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { StartupError } from '../errors/index.ts';
import type { StatePaths } from '../paths.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { restrictToOwner } from '../store/file-mode.ts';

export const RSA_MODULUS_BITS = 4096;

export interface ServerKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** RFC 7638 thumbprint of the public key: the JWT `kid`. */
  kid: string;
  /** What step 6 did. */
  source: 'verified' | 'generated' | 'public-restored';
  /** The mode the private key file had when it was readable by others (it is now 0600). */
  tightenedFrom?: string;
}

const generateKeyPairAsync = promisify(generateKeyPair);

/**
 * Startup step 6. Both files present: parsed and checked (size, pair match). Only the private key:
 * the public key is derived and written. Neither: a new RSA-4096 pair is generated off the event loop.
 * Anything else (corrupt, mismatched, wrong size, public key without its private key) stops startup:
 * regenerating would silently invalidate every token and every backup.
 */
export async function ensureServerKeys(paths: StatePaths): Promise<ServerKeys> {
  const havePriv = existsSync(paths.rsaPrivateKey);
  const havePub = existsSync(paths.rsaPublicKey);
  if (!havePriv && havePub) {
    throw new StartupError(
      `${paths.rsaPublicKey} exists without its private key; restore rsa_private.pem or remove both to start over`,
    );
  }
  if (!havePriv) {
    const { privateKey, publicKey } = await generateKeyPairAsync('rsa', { modulusLength: RSA_MODULUS_BITS });
    writeFileAtomic(paths.rsaPrivateKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), 0o600);
    writeFileAtomic(paths.rsaPublicKey, publicKey.export({ type: 'spki', format: 'pem' }), 0o600);
    return { privateKey, publicKey, kid: await thumbprint(publicKey), source: 'generated' };
  }
  const privateKey = parsePrivate(paths.rsaPrivateKey);
  // A key copied or restored with a wide mode is made private before anything else uses it.
  const tightenedFrom = restrictToOwner(paths.rsaPrivateKey);
  const tightened = tightenedFrom === undefined ? {} : { tightenedFrom };
  const derivedPublic = createPublicKey(privateKey);
  if (!havePub) {
    writeFileAtomic(paths.rsaPublicKey, derivedPublic.export({ type: 'spki', format: 'pem' }), 0o600);
    return {
      privateKey,
      publicKey: derivedPublic,
      kid: await thumbprint(derivedPublic),
      source: 'public-restored',
      ...tightened,
    };
  }
  const publicKey = parsePublic(paths.rsaPublicKey);
  const a = derivedPublic.export({ type: 'spki', format: 'der' });
  const b = publicKey.export({ type: 'spki', format: 'der' });
  if (!a.equals(b)) throw new StartupError(`${paths.rsaPublicKey} does not match ${paths.rsaPrivateKey}`);
  return { privateKey, publicKey, kid: await thumbprint(publicKey), source: 'verified', ...tightened };
}

/** Loads the public key alone (backups need only it). */
export function loadPublicKey(path: string): KeyObject {
  return parsePublic(path);
}

function parsePrivate(path: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(path));
  } catch (err) {
    throw new StartupError(
      `${path} is not a readable private key (${(err as Error).message}); refusing to replace it`,
    );
  }
  checkRsa(key, path);
  return key;
}

function parsePublic(path: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(readFileSync(path));
  } catch (err) {
    throw new StartupError(`${path} is not a readable public key (${(err as Error).message})`);
  }
  checkRsa(key, path);
  return key;
}

function checkRsa(key: KeyObject, path: string): void {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (key.asymmetricKeyType !== 'rsa' || bits !== RSA_MODULUS_BITS) {
    throw new StartupError(
      `${path} must be an RSA-${RSA_MODULUS_BITS} key (found ${key.asymmetricKeyType} ${bits ?? '?'})`,
    );
  }
}

async function thumbprint(publicKey: KeyObject): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(publicKey), 'sha256');
}
