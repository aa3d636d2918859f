import { createHash } from 'node:crypto';

/** OpenSSH's form, as `ssh-keygen -l` prints it: `SHA256:` and unpadded base64 of the key blob's digest. */
export const FINGERPRINT_PATTERN = /^SHA256:[A-Za-z0-9+/]{43}$/;

/** The fingerprint of a raw SSH host key blob (what ssh2 hands a hostVerifier when hostHash is unset). */
export function sshFingerprint(hostKey: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(hostKey).digest('base64').replace(/=+$/, '')}`;
}

/** The key type named at the start of the blob (`ssh-ed25519`, `rsa-sha2-512`...), if it parses. */
export function sshKeyType(hostKey: Uint8Array): string | undefined {
  const buf = Buffer.from(hostKey.buffer, hostKey.byteOffset, hostKey.byteLength);
  if (buf.length < 4) return undefined;
  const len = buf.readUInt32BE(0);
  if (len === 0 || len > 64 || 4 + len > buf.length) return undefined;
  const type = buf.toString('latin1', 4, 4 + len);
  return /^[\x21-\x7e]+$/.test(type) ? type : undefined;
}

/** Accepts a fingerprint as typed by a person: padding and surrounding spaces are forgiven, case is not. */
export function normaliseFingerprint(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const fp = input.trim().replace(/=+$/, '');
  return FINGERPRINT_PATTERN.test(fp) ? fp : undefined;
}
