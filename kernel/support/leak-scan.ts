import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { containsSecret, isSecretSetting, isSecretStateField } from './secret-shapes.ts';
import type { OperatorSettings } from './settings.ts';

// The support bundle's last line of defence. The bundle is built from an allowlist (it never opens a
// key, token, vault or backup file to copy it), but before it is packaged every byte of it is searched
// for the secrets this installation actually holds, and for the shapes of private keys and JWTs. Any
// hit aborts the bundle: a support case can wait, a leaked key cannot be taken back.

/** One secret to look for, named by where it lives (the name is shown, the secret never). */
export interface Forbidden {
  label: string;
  needle: Buffer;
}

/** Shorter needles would match by chance; no secret of this installation is that short. */
const MIN_NEEDLE = 8;
/** Files larger than this are not secrets we can search for as a whole (backups are sampled instead). */
const MAX_SECRET_FILE = 64 * 1024;
const CHUNK = 1 << 20;

const PATTERNS: { label: string; re: RegExp }[] = [
  { label: 'a PEM private key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/ },
  { label: 'a JWT', re: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/ },
];
const PATTERN_SPAN = 4096;

/** Collects the secrets of the installation: keys, tokens, client secrets, vault files, license, .env. */
export function forbiddenMaterial(settings: OperatorSettings): Forbidden[] {
  const out: Forbidden[] = [];
  const { paths } = settings;
  const add = (label: string, value: string | Buffer): void => {
    const needle = typeof value === 'string' ? Buffer.from(value.trim(), 'utf8') : value;
    if (needle.length >= MIN_NEEDLE) out.push({ label, needle });
  };
  const name = (file: string): string => relative(paths.root, file) || file;

  for (const file of filesBelow(paths.secrets)) addSecretFile(file, name(file), add);
  for (const file of filesBelow(paths.clients)) {
    // client.json holds the operator's narrowing settings, nothing secret.
    if (!file.endsWith('client.json')) addSecretFile(file, name(file), add);
  }
  const tlsKey = settings.config?.TLS_KEY_FILE || settings.dotenv.TLS_KEY_FILE;
  if (tlsKey) addSecretFile(tlsKey, 'TLS_KEY_FILE', add);
  for (const file of filesBelow(paths.backups)) {
    // A sidecar holds only a hash (which may well be logged); the archive is the secret.
    if (file.endsWith('.sha512')) continue;
    // An encrypted backup is never small enough to search for whole: a slice of it stands for it.
    const sample = sampleOf(file);
    if (sample) add(`backup ${name(file)}`, sample);
  }
  for (const [key, value] of Object.entries(settings.dotenv)) {
    // The path of a key file is not the key (and may well be logged); the file itself is read above.
    // Otherwise the bundle's own rule: what it hides is what must not be found in it.
    const secret = /_(FILE|PATH|DIR)$/i.test(key) ? containsSecret(value) : isSecretSetting(key, value);
    if (secret) add(`the .env value of ${key}`, value);
  }
  return out;
}

function addSecretFile(file: string, label: string, add: (label: string, v: string | Buffer) => void): void {
  let bytes: Buffer;
  try {
    if (statSync(file).size > MAX_SECRET_FILE) return;
    bytes = readFileSync(file);
  } catch {
    return;
  }
  add(label, bytes);
  const text = bytes.toString('utf8');
  if (/-----BEGIN [A-Z0-9 ]+-----/.test(text)) {
    // A key could surface re-wrapped or in pieces: every base64 line stands for the key.
    for (const line of text.split(/\r?\n/)) if (/^[A-Za-z0-9+/=]{40,}$/.test(line)) add(label, line);
    return;
  }
  if (bytes.length === 32 && !/^[\x20-\x7e]*$/.test(bytes.toString('latin1'))) {
    // A raw 32-byte key (the vault master secret) in the encodings it could be copied as.
    add(label, bytes.toString('hex'));
    add(label, bytes.toString('base64'));
  }
  const trimmed = text.trim();
  const jwt = trimmed.split('.');
  if (jwt.length === 3) for (const part of jwt.slice(1)) add(label, part);
  if (trimmed.startsWith('{')) {
    try {
      for (const leaf of secretLeaves(JSON.parse(trimmed) as unknown)) add(label, leaf);
    } catch {
      // Not JSON after all: the whole content is already a needle.
    }
  }
}

/**
 * Field names of sealed or hashed material in state JSON (vault boxes and salts, bcrypt hashes).
 * Identifiers beside them (jti, kid, family) are not secret and do appear in the logs, so values are
 * picked by field name, not by shape.
 */
const SECRET_FIELD = /hash|box|nonce|salt|check|mac|cipher_?text/i;

function secretLeaves(value: unknown, out: string[] = [], depth = 0): string[] {
  if (value === null || typeof value !== 'object' || depth > 10) return out;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && (isSecretStateField(k) || SECRET_FIELD.test(k))) out.push(v);
    else stringLeavesOf(v, out, depth);
  }
  return out;
}

function stringLeavesOf(v: unknown, out: string[], depth: number): void {
  if (v !== null && typeof v === 'object') secretLeaves(v, out, depth + 1);
}

function sampleOf(file: string): Buffer | null {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    if (size < 64) return null;
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(48);
    readSync(fd, buf, 0, buf.length, Math.floor(size / 2) - 24);
    return buf;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory() && depth < 6) walk(p, depth + 1);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir, 0);
  return out;
}

/**
 * Searches one file for every needle and pattern, in chunks that overlap by the longest needle so a
 * match across a chunk boundary is still found. Returns the labels found (each once).
 */
export function scanFile(path: string, forbidden: Forbidden[]): string[] {
  const found = new Set<string>();
  const overlap = Math.max(PATTERN_SPAN, ...forbidden.map((f) => f.needle.length));
  const fd = openSync(path, 'r');
  try {
    let carry = Buffer.alloc(0);
    const buf = Buffer.alloc(CHUNK);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      const window = Buffer.concat([carry, buf.subarray(0, n)]);
      for (const f of forbidden) if (!found.has(f.label) && window.includes(f.needle)) found.add(f.label);
      const text = window.toString('latin1');
      for (const p of PATTERNS) if (p.re.test(text)) found.add(p.label);
      carry = window.subarray(Math.max(0, window.length - overlap));
    }
  } finally {
    closeSync(fd);
  }
  return [...found];
}
