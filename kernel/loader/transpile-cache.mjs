// The server's TypeScript loader cache (kernel/loader/hooks.mjs). An entry is the esbuild output for one
// source file's exact bytes, so what runs is always the transpile of the bytes on disk that the integrity
// manifest signs: the entry's name is the SHA-256 of the transform options, the file's path and those
// bytes, and its first line an HMAC-SHA256 of name and output under a key kept in STATE_DIR/secrets. An
// entry whose HMAC does not verify (edited, truncated, planted without the key) is never run: the source
// is transpiled again and the entry replaced. Plain JavaScript: it runs before any TypeScript support.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { constants } from 'node:fs';
import { mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Bumped when the entry format or the transform changes in a way the options do not show. */
export const CACHE_FORMAT = 'ucmcp-transpile-1';
export const KEY_FILE = 'transpile_cache.key';
const HMAC_HEX = /^[0-9a-f]{64}$/;
/** Entries are read without following a link, and a FIFO planted in their place never blocks the read. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The HMAC key in `secretsDir`, created (0600) on first use. Null when the secrets directory does not
 * exist yet (the first start creates it): the loader then transpiles without a cache.
 */
export async function cacheKey(secretsDir) {
  const file = join(secretsDir, KEY_FILE);
  try {
    const key = await readFile(file);
    if (key.length >= 32) return key;
  } catch (err) {
    if (err.code !== 'ENOENT') return null;
  }
  const key = randomBytes(32);
  try {
    // wx: two processes starting at once must not overwrite each other's key (one loses its entries).
    await writeFile(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if (err.code === 'EEXIST') {
      const other = await readFile(file).catch(() => null);
      return other && other.length >= 32 ? other : null;
    }
    return null;
  }
}

/** The entry name for `source` at `path` under transform options `tag`. */
export function entryName(tag, path, source) {
  return createHash('sha256').update(`${CACHE_FORMAT}\0${tag}\0${path}\0`).update(source).digest('hex');
}

function mac(key, name, code) {
  return createHmac('sha256', key).update(`${name}\n`).update(code).digest();
}

/** The cached output for `name`, or null when there is none or it does not verify. */
export async function readEntry(dir, key, name) {
  let raw;
  try {
    const fh = await open(join(dir, name), READ_FLAGS);
    try {
      raw = await fh.readFile();
    } finally {
      await fh.close();
    }
  } catch {
    return null;
  }
  const nl = raw.indexOf(0x0a);
  const head = nl === 64 ? raw.subarray(0, 64).toString('latin1') : '';
  if (!HMAC_HEX.test(head)) return null;
  const code = raw.subarray(nl + 1);
  const want = mac(key, name, code);
  return timingSafeEqual(Buffer.from(head, 'hex'), want) ? code.toString('utf8') : null;
}

/** Stores `code` as entry `name` (temporary file then rename: a reader never sees half an entry). */
export async function writeEntry(dir, key, name, code) {
  const body = Buffer.from(code, 'utf8');
  const tmp = join(dir, `${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(tmp, Buffer.concat([Buffer.from(`${mac(key, name, body).toString('hex')}\n`), body]), {
      mode: 0o600,
      flag: 'wx',
    });
    await rename(tmp, join(dir, name));
  } catch {
    // A cache that cannot be written (read-only or full disk) only costs the next start a transpile.
    await unlink(tmp).catch(() => undefined);
  }
}
