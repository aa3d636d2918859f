import { createCipheriv, createHash, randomBytes, type KeyObject } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { loadTar } from '../support/tar-library.ts';
import type { ArchiveEntry } from './contents.ts';
import {
  CIPHER,
  encodeHeader,
  encodeTrailer,
  IV_BYTES,
  KEY_BYTES,
  keyFingerprint,
  wrapKey,
  type BackupMeta,
} from './format.ts';

export interface EncryptOptions {
  /** The directory the entries are relative to. */
  cwd: string;
  entries: ArchiveEntry[];
  publicKey: KeyObject;
  meta: Omit<BackupMeta, 'key_sha256'>;
  /** Written with O_EXCL: the caller picks a fresh temporary name and renames it when done. */
  out: string;
  signal?: AbortSignal;
  /** Bytes of plaintext tar.gz produced so far (progress). */
  onBytes?: (n: number) => void;
  /** A file that could not be read (removed during the backup...): skipped, reported here. */
  onWarning?: (message: string) => void;
}

/**
 * Streams tar.gz → AES-256-GCM → file, so memory stays bounded whatever the state's size, and hashes
 * the output on the way (the sidecar needs no second read). The session key lives only in this call.
 * Returns the SHA-512 (hex) and size of the file written; on any error the partial file is removed.
 */
export async function writeEncryptedArchive(o: EncryptOptions): Promise<{ sha512: string; bytes: number }> {
  const sessionKey = randomBytes(KEY_BYTES);
  const iv = randomBytes(IV_BYTES);
  const header = encodeHeader(
    { ...o.meta, key_sha256: keyFingerprint(o.publicKey) },
    wrapKey(o.publicKey, sessionKey),
    iv,
  );
  const cipher = createCipheriv(CIPHER, sessionKey, iv);
  sessionKey.fill(0);
  cipher.setAAD(header);
  const hash = createHash('sha512');
  let bytes = 0;
  const fh = await open(o.out, 'wx', 0o600);
  try {
    const write = async (buf: Buffer): Promise<void> => {
      if (buf.length === 0) return;
      hash.update(buf);
      bytes += buf.length;
      await fh.write(buf);
    };
    await write(header);
    let ciphertextLength = 0;
    const { Pack } = await loadTar();
    const pack = new Pack({
      cwd: o.cwd,
      gzip: true,
      // Paths are given one by one (directories too), so nothing is added behind the selection's back.
      noDirRecurse: true,
      // No uid, gid, user names, atime or ctime: a restore belongs to whoever runs the server then.
      portable: true,
      // The selection only lists symlinks that point at regular files; store their content.
      follow: true,
      onwarn: (_code: string, message: string | Error) => {
        o.onWarning?.(typeof message === 'string' ? message : message.message);
      },
    });
    // The loop below receives the first error; one raised after it stopped reading (a second file gone
    // since the listing) must not become an uncaught exception of the server.
    pack.on('error', () => undefined);
    // Pack.add takes the path literally (tar.create would read a leading "@" as "include this archive").
    for (const e of o.entries) pack.add(e.path);
    pack.end();
    for await (const chunk of pack as AsyncIterable<Buffer>) {
      if (o.signal?.aborted) throw new Error('backup aborted (server stopping)');
      o.onBytes?.(chunk.length);
      const enc = cipher.update(chunk);
      ciphertextLength += enc.length;
      await write(enc);
    }
    const last = cipher.final();
    ciphertextLength += last.length;
    await write(last);
    await write(encodeTrailer(cipher.getAuthTag(), ciphertextLength));
    await fh.sync();
    await fh.close();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(o.out, { force: true });
    throw err;
  }
  return { sha512: hash.digest('hex'), bytes };
}
