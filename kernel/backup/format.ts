// The encrypted backup file format, version 1. All integers big-endian.
//
//   magic          8 bytes   "UCMCPBAK"
//   version        1 byte    1
//   meta length    2 bytes   n (at most MAX_META_BYTES)
//   meta           n bytes   UTF-8 JSON: id, created_at, hostname, server_version, key_sha256
//   wrapped length 2 bytes   k (512 for RSA-4096)
//   wrapped key    k bytes   RSA-OAEP (SHA-256) of the 32-byte AES key, under the server public key
//   iv             12 bytes  AES-GCM nonce, random per backup
//   ciphertext     ...       AES-256-GCM of the tar.gz stream
//   tag            16 bytes  GCM authentication tag
//   end marker     8 bytes   "UCMCPEND"
//   length         8 bytes   ciphertext length
//
// Every header byte (magic to iv) is GCM additional authenticated data, so a changed id, date or key
// fingerprint fails the tag like a changed ciphertext byte does. The session key is random per backup
// and exists only in memory; creating a backup needs only the public key, reading one the private key.
// The end marker and length are not secret and not authenticated (the tag is): they only let a reader
// say "truncated" rather than "altered" when the end of the file is missing.

import {
  constants,
  createHash,
  createPublicKey,
  privateDecrypt,
  publicEncrypt,
  type KeyObject,
} from 'node:crypto';
import { BackupError } from './errors.ts';

export const MAGIC = Buffer.from('UCMCPBAK', 'latin1');
export const FORMAT_VERSION = 1;
export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
export const END_MARKER = Buffer.from('UCMCPEND', 'latin1');
/** Tag, end marker and length. */
export const TRAILER_BYTES = TAG_BYTES + END_MARKER.length + 8;
export const MAX_META_BYTES = 4096;
/** Wrapped keys up to RSA-8192; RSA-4096 gives 512. */
export const MAX_WRAPPED_BYTES = 1024;
/** The most bytes a header can take: read this much to parse one. */
export const MAX_HEADER_BYTES = MAGIC.length + 1 + 2 + MAX_META_BYTES + 2 + MAX_WRAPPED_BYTES + IV_BYTES;
export const CIPHER = 'aes-256-gcm';

export interface BackupMeta {
  /** `<YYYYMM>_<hostname>_<YYYYMMDD>_<HHMMSS>`. */
  id: string;
  created_at: string;
  hostname: string;
  server_version: string;
  /** SHA-256 (hex) of the DER public key the session key was wrapped under: names the key a restore needs. */
  key_sha256: string;
}

export interface ParsedHeader {
  meta: BackupMeta;
  wrappedKey: Buffer;
  iv: Buffer;
  /** The header bytes, the GCM additional authenticated data. */
  aad: Buffer;
  /** Offset of the first ciphertext byte. */
  length: number;
}

/** SHA-256 (hex) of a key's public half in SPKI DER form. */
export function keyFingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const der = pub.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex');
}

export function wrapKey(publicKey: KeyObject, sessionKey: Buffer): Buffer {
  return publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    sessionKey,
  );
}

/** Unwraps the session key; WRONG_KEY when the private key is not the one the backup was made for. */
export function unwrapKey(privateKey: KeyObject, header: ParsedHeader): Buffer {
  const given = keyFingerprint(privateKey);
  if (given !== header.meta.key_sha256) {
    throw new BackupError(
      'WRONG_KEY',
      `wrong key: this backup was encrypted for the public key with SHA-256 ${header.meta.key_sha256.slice(0, 16)}..., ` +
        `the key given is ${given.slice(0, 16)}... (after a key rotation, use the archived key secrets/rsa_private.pem.archived.<date>)`,
    );
  }
  let key: Buffer;
  try {
    key = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      header.wrappedKey,
    );
  } catch (err) {
    // The fingerprint matched, so the wrapped key itself was altered.
    throw new BackupError('TAMPERED', 'the wrapped session key does not decrypt: the archive was altered', {
      cause: err,
    });
  }
  if (key.length !== KEY_BYTES)
    throw new BackupError('TAMPERED', 'the wrapped session key has the wrong length');
  return key;
}

export function encodeHeader(meta: BackupMeta, wrappedKey: Buffer, iv: Buffer): Buffer {
  const metaBytes = Buffer.from(JSON.stringify(meta), 'utf8');
  if (metaBytes.length > MAX_META_BYTES) throw new Error('backup metadata too large');
  const fixed = Buffer.alloc(1 + 2);
  fixed.writeUInt8(FORMAT_VERSION, 0);
  fixed.writeUInt16BE(metaBytes.length, 1);
  const wrappedLen = Buffer.alloc(2);
  wrappedLen.writeUInt16BE(wrappedKey.length, 0);
  return Buffer.concat([MAGIC, fixed, metaBytes, wrappedLen, wrappedKey, iv]);
}

/**
 * Parses the header from the first bytes of a file (`fileSize` is the whole file's size, to tell a
 * truncated archive from a foreign file).
 */
export function parseHeader(head: Buffer, fileSize: number): ParsedHeader {
  if (head.length < MAGIC.length || !head.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new BackupError('NOT_A_BACKUP', 'not an encrypted backup of this server (bad magic)');
  }
  let off = MAGIC.length;
  const need = (n: number): void => {
    if (off + n > head.length)
      throw new BackupError('TRUNCATED', 'the archive is truncated: its header is incomplete');
  };
  need(3);
  const version = head.readUInt8(off);
  if (version !== FORMAT_VERSION) {
    throw new BackupError(
      'UNSUPPORTED_VERSION',
      `unsupported backup format version ${version} (this tool reads ${FORMAT_VERSION})`,
    );
  }
  const metaLen = head.readUInt16BE(off + 1);
  off += 3;
  if (metaLen > MAX_META_BYTES)
    throw new BackupError('TAMPERED', 'the archive header is damaged (metadata length)');
  need(metaLen);
  let meta: BackupMeta;
  try {
    meta = parseMeta(head.subarray(off, off + metaLen).toString('utf8'));
  } catch (err) {
    throw new BackupError('TAMPERED', 'the archive header is damaged (metadata)', { cause: err });
  }
  off += metaLen;
  need(2);
  const wrappedLen = head.readUInt16BE(off);
  off += 2;
  if (wrappedLen === 0 || wrappedLen > MAX_WRAPPED_BYTES) {
    throw new BackupError('TAMPERED', 'the archive header is damaged (wrapped key length)');
  }
  need(wrappedLen + IV_BYTES);
  const wrappedKey = Buffer.from(head.subarray(off, off + wrappedLen));
  off += wrappedLen;
  const iv = Buffer.from(head.subarray(off, off + IV_BYTES));
  off += IV_BYTES;
  if (fileSize < off + TRAILER_BYTES) {
    throw new BackupError('TRUNCATED', 'the archive is truncated: it ends right after its header');
  }
  return { meta, wrappedKey, iv, aad: Buffer.from(head.subarray(0, off)), length: off };
}

export function encodeTrailer(tag: Buffer, ciphertextLength: number): Buffer {
  const len = Buffer.alloc(8);
  len.writeBigUInt64BE(BigInt(ciphertextLength));
  return Buffer.concat([tag, END_MARKER, len]);
}

/** Reads the last TRAILER_BYTES of the file: the tag, once the end marker and length show nothing is missing. */
export function parseTrailer(trailer: Buffer, fileSize: number, headerLength: number): Buffer {
  const marker = trailer.subarray(TAG_BYTES, TAG_BYTES + END_MARKER.length);
  const expected = fileSize - headerLength - TRAILER_BYTES;
  const recorded =
    trailer.length === TRAILER_BYTES ? trailer.readBigUInt64BE(TAG_BYTES + END_MARKER.length) : -1n;
  if (!marker.equals(END_MARKER) || recorded !== BigInt(expected)) {
    throw new BackupError(
      'TRUNCATED',
      'the archive is truncated (its end marker is missing or its recorded length does not match the file): ' +
        'copy it again from the source',
    );
  }
  return Buffer.from(trailer.subarray(0, TAG_BYTES));
}

function parseMeta(text: string): BackupMeta {
  const v = JSON.parse(text) as Record<string, unknown>;
  const str = (k: string): string => {
    const x = v[k];
    if (typeof x !== 'string') throw new Error(`${k} missing`);
    return x;
  };
  const meta: BackupMeta = {
    id: str('id'),
    created_at: str('created_at'),
    hostname: str('hostname'),
    server_version: str('server_version'),
    key_sha256: str('key_sha256'),
  };
  // The id names a folder: nothing but the characters a backup name allows.
  if (!/^\d{6}_[A-Za-z0-9.-]+_\d{8}_\d{6}$/.test(meta.id)) throw new Error('bad id');
  if (!/^[0-9a-f]{64}$/.test(meta.key_sha256)) throw new Error('bad key fingerprint');
  return meta;
}
