import { createDecipheriv, type KeyObject } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { BackupError } from './errors.ts';
import {
  CIPHER,
  MAX_HEADER_BYTES,
  parseHeader,
  parseTrailer,
  TRAILER_BYTES,
  unwrapKey,
  type ParsedHeader,
} from './format.ts';

/** An archive whose header parsed and whose session key unwrapped: ready to verify and decrypt. */
export interface OpenedArchive {
  file: string;
  size: number;
  header: ParsedHeader;
  /** Plaintext length is about this (GCM adds nothing; progress uses it). */
  ciphertextBytes: number;
  tag: Buffer;
  /** The session key: held in memory only, never written or printed. */
  key: Buffer;
}

/**
 * Reads the header and trailer and unwraps the session key with the private key. NOT_A_BACKUP,
 * UNSUPPORTED_VERSION, TRUNCATED, WRONG_KEY or TAMPERED tell what is wrong; nothing is written.
 */
export async function openArchive(file: string, privateKey: KeyObject): Promise<OpenedArchive> {
  if (!existsSync(file) || !statSync(file).isFile())
    throw new BackupError('NOT_FOUND', `no such backup file: ${file}`);
  const size = statSync(file).size;
  const fh = await open(file, 'r');
  let head: Buffer;
  let trailer: Buffer;
  try {
    head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
    await fh.read(head, 0, head.length, 0);
    trailer = Buffer.alloc(Math.min(size, TRAILER_BYTES));
    await fh.read(trailer, 0, trailer.length, Math.max(0, size - TRAILER_BYTES));
  } finally {
    await fh.close();
  }
  const header = parseHeader(head, size);
  const tag = parseTrailer(trailer, size, header.length);
  const key = unwrapKey(privateKey, header);
  return { file, size, header, ciphertextBytes: size - header.length - TRAILER_BYTES, tag, key };
}

/**
 * The decrypted tar.gz as a stream. Bytes come out before the tag is checked (GCM checks it at the
 * end), so a reader must treat them as untrusted until the stream ends without error: the tag failure
 * is the stream's error (TAMPERED). Restores write into a staging folder that is removed on error.
 */
export function decryptStream(a: OpenedArchive, onBytes?: (n: number) => void): Readable {
  const decipher = createDecipheriv(CIPHER, a.key, a.header.iv);
  decipher.setAAD(a.header.aad);
  decipher.setAuthTag(a.tag);
  const source =
    a.ciphertextBytes > 0
      ? createReadStream(a.file, { start: a.header.length, end: a.header.length + a.ciphertextBytes - 1 })
      : undefined;
  const out = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      onBytes?.(chunk.length);
      cb(null, decipher.update(chunk));
    },
    flush(cb) {
      try {
        cb(null, decipher.final());
      } catch (err) {
        cb(tampered(err));
      }
    },
  });
  if (source) {
    source.on('error', (err) => out.destroy(err));
    source.pipe(out);
  } else out.end();
  return out;
}

/** Decrypts the whole archive to nowhere: proves the tag before anything is extracted. */
export async function verifyArchive(a: OpenedArchive, onBytes?: (n: number) => void): Promise<void> {
  for await (const chunk of decryptStream(a, onBytes) as AsyncIterable<Buffer>) void chunk;
}

function tampered(cause: unknown): BackupError {
  return new BackupError(
    'TAMPERED',
    'the archive failed authentication (AES-GCM tag mismatch): its content was altered after it was written',
    { cause },
  );
}
