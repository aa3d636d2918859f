import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { createStateFileOnce, readStateFile } from '../tls/files.ts';

export interface HostKey {
  privateKey: string;
  /** OpenSSH form: `SHA256:` and the unpadded base64 SHA-256 of the public key blob. */
  fingerprint: string;
}

export function fingerprintOf(privateKey: string): string {
  const parsed = ssh2.utils.parseKey(privateKey);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error)
    throw new Error(`unusable host key: ${key instanceof Error ? key.message : 'empty'}`);
  return `SHA256:${createHash('sha256').update(key.getPublicSSH()).digest('base64').replace(/=+$/, '')}`;
}

/** The node's own ed25519 host key, kept in `stateDir/ssh` so that a pinned fingerprint survives restarts. */
export function loadOrCreateHostKey(stateDir: string, node: string): HostKey {
  const path = join(stateDir, 'ssh', `${node}_host_ed25519_key`);
  const existing = readStateFile(path);
  if (existing !== undefined) {
    try {
      return { privateKey: existing, fingerprint: fingerprintOf(existing) };
    } catch {
      // A damaged key is replaced: the node gets a new identity, as after a reinstall.
      rmSync(path, { force: true });
    }
  }
  const privateKey = createStateFileOnce(path, generateParseableEd25519());
  return { privateKey, fingerprint: fingerprintOf(privateKey) };
}

/**
 * ssh2 1.17 generates, about once in 250 tries, an ed25519 key in OpenSSH format that its own parser
 * then refuses ("Malformed OpenSSH private key"). Generate until ssh2 can read the key back.
 */
export function generateParseableEd25519(): string {
  for (let attempt = 0; attempt < 50; attempt++) {
    const key = ssh2.utils.generateKeyPairSync('ed25519').private;
    if (!(ssh2.utils.parseKey(key) instanceof Error)) return key;
  }
  throw new Error('could not generate an ed25519 host key that ssh2 can parse');
}
