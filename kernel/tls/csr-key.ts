import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { StatePaths } from '../paths.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';

/** Where a CSR key is generated when the installation has no TLS key yet (never the self-signed slot). */
export const CSR_KEY_FILE = 'tls_csr_key.pem';
/** Same size as the self-signed key: cheap handshakes, and what CAs accept. */
const GENERATED_RSA_BITS = 2048;

export interface CsrKey {
  privateKey: KeyObject;
  path: string;
  source: 'reused' | 'generated';
  /** Why this file was chosen (shown to the operator). */
  origin: 'option' | 'TLS_KEY_FILE' | 'csr-key' | 'self-signed';
}

/**
 * The private key the CSR is for, reusing an existing one (spec: "reuses an existing private key if
 * present"), first match wins: `--key`; the configured TLS_KEY_FILE; a key an earlier CSR run
 * generated (secrets/tls_csr_key.pem); the self-signed certificate's key (secrets/tls_key.pem). With
 * none present, a new RSA key is written 0600 to the `--key` path, TLS_KEY_FILE, or
 * secrets/tls_csr_key.pem. secrets/tls_key.pem is never created here: startup treats a key without its
 * certificate there as damage.
 */
export function resolveCsrKey(opts: {
  paths: StatePaths;
  keyOption?: string;
  tlsKeyFile?: string;
  cwd: string;
}): CsrKey {
  const { paths } = opts;
  const csrKey = join(paths.secrets, CSR_KEY_FILE);
  const candidates: [string, CsrKey['origin']][] = opts.keyOption
    ? [[resolve(opts.cwd, opts.keyOption), 'option']]
    : [
        ...(opts.tlsKeyFile
          ? [[resolve(opts.cwd, opts.tlsKeyFile), 'TLS_KEY_FILE'] as [string, CsrKey['origin']]]
          : []),
        [csrKey, 'csr-key'],
        [paths.tlsKey, 'self-signed'],
      ];
  for (const [path, origin] of candidates) {
    if (existsSync(path)) return { privateKey: readKey(path), path, source: 'reused', origin };
  }
  const [path, origin] = candidates[0] as [string, CsrKey['origin']];
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: GENERATED_RSA_BITS });
  writeFileAtomic(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), 0o600);
  return { privateKey, path, source: 'generated', origin };
}

function readKey(path: string): KeyObject {
  try {
    return createPrivateKey(readFileSync(path));
  } catch (err) {
    // The message of a parse failure never quotes the file, so it is safe to show.
    throw new Error(
      `${path} is not a usable private key (${(err as Error).message}); an encrypted key must be decrypted first`,
      { cause: err },
    );
  }
}
