// The canary scanner of the secret-hygiene test: distinctive random secrets, the forms they could leak
// in, and a search of everything the product lets anyone observe. The searching itself is the support
// bundle's (kernel/support/leak-scan.ts: scanFile over needles, plus the PEM private key and JWT shapes);
// this module only adds the canaries' encodings and the places to look.
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { scanFile, type Forbidden } from '../../../kernel/support/leak-scan.ts';

/** A leak: where it was seen and what (labels of canaries or installation secrets, never their value). */
export interface Finding {
  where: string;
  what: string[];
}

/** The length of a fragment that still identifies a canary (48 random bits as hex). */
const PART = 12;

/**
 * Canaries: `CANARY-<purpose>-<24 random hex>` plus, for passwords, characters that change under JSON,
 * URL, XML and shell escaping. Each is searched for by its random core, so an escaped, quoted, truncated
 * or re-encoded copy is found too (see `needles`).
 */
export class Canaries {
  readonly #cores = new Map<string, string>();
  readonly #values = new Map<string, string>();

  /** A canary password (with escaping-sensitive characters). */
  password(purpose: string): string {
    return this.#add(purpose, (core) => `CANARY-${purpose}-${core}!&<"'%+/:@`);
  }

  /** A canary token: letters, digits and dashes only (an opaque token, a bearer value, a .env value). */
  token(purpose: string): string {
    return this.#add(purpose, (core) => `CANARY-${purpose}-${core}`);
  }

  /** Digits only (a voicemail PIN). */
  digits(purpose: string): string {
    let core = '';
    while (core.length < 20) core += String(randomInt(10));
    return this.#add(purpose, () => core, core);
  }

  /** A JWT-shaped token (header.payload.signature) whose payload and signature carry the canary. */
  jwt(purpose: string): string {
    const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    return this.#add(
      purpose,
      (core) =>
        `${b64({ alg: 'RS256', typ: 'at+jwt' })}.${b64({ sub: 'admin1', jti: `CANARY-${purpose}-${core}` })}.${core}${core}`,
    );
  }

  get(purpose: string): string {
    const v = this.#values.get(purpose);
    if (v === undefined) throw new Error(`no canary ${purpose}`);
    return v;
  }

  get labels(): string[] {
    return [...this.#values.keys()];
  }

  /** Needles for every canary except `except`. */
  needles(except: readonly string[] = []): Forbidden[] {
    return [...this.#cores]
      .filter(([label]) => !except.includes(label))
      .flatMap(([label, core]) => encodings(`canary ${label}`, core));
  }

  #add(purpose: string, make: (core: string) => string, fixedCore?: string): string {
    if (this.#values.has(purpose)) throw new Error(`canary ${purpose} exists`);
    const core = fixedCore ?? randomBytes(12).toString('hex');
    const value = make(core);
    this.#cores.set(purpose, core);
    this.#values.set(purpose, value);
    return value;
  }
}

/**
 * The forms a secret could leak in, from its random core: as is (raw, JSON- URL- or XML-escaped copies
 * keep the core intact), upper-cased, any 12-character fragment, hex, and base64/base64url at each of
 * the three alignments it can have inside a longer encoded text (`user:password` in a Basic header).
 */
export function encodings(label: string, core: string): Forbidden[] {
  const out: Forbidden[] = [];
  const add = (what: string, text: string | Buffer): void => {
    out.push({ label: `${label}${what}`, needle: typeof text === 'string' ? Buffer.from(text) : text });
  };
  add('', core);
  add(' (upper case)', core.toUpperCase());
  for (let i = 0; i + PART <= core.length; i++) add(' (fragment)', core.slice(i, i + PART));
  const hex = Buffer.from(core).toString('hex');
  add(' (hex)', hex);
  add(' (hex)', hex.toUpperCase());
  for (let shift = 0; shift < 3; shift++) {
    const bytes = Buffer.concat([Buffer.alloc(shift, 0x20), Buffer.from(core)]);
    for (const enc of ['base64', 'base64url'] as const) {
      const text = bytes.toString(enc).replace(/=+$/, '');
      // The first group mixes in the bytes before the core, the last one the bytes after it.
      add(` (${enc})`, text.slice(shift === 0 ? 0 : 4, text.length - 4));
    }
  }
  return out;
}

/** Needles for a real secret the test came across (an access token, a replaced startup token). */
export function secretNeedles(label: string, value: string): Forbidden[] {
  const out: Forbidden[] = [{ label, needle: Buffer.from(value) }];
  const parts = value.split('.');
  if (parts.length === 3)
    parts
      .slice(1)
      .forEach((p, i) =>
        out.push({ label: `${label} (${i ? 'signature' : 'payload'})`, needle: Buffer.from(p) }),
      );
  return out;
}

/**
 * Everything observed during the run (tool results, MCP messages, HTTP answers, console output...),
 * one file per item so that a finding names the item.
 */
export class Observed {
  readonly #items: { where: string; file: string }[] = [];

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  add(where: string, content: unknown): void {
    const file = join(this.dir, String(this.#items.length).padStart(5, '0'));
    const bytes =
      typeof content === 'string'
        ? content
        : Buffer.isBuffer(content)
          ? content
          : (JSON.stringify(content) ?? String(content));
    writeFileSync(file, bytes);
    this.#items.push({ where, file });
  }

  get count(): number {
    return this.#items.length;
  }

  scan(forbidden: Forbidden[]): Finding[] {
    return this.#items
      .map(({ where, file }) => ({ where, what: scanFile(file, forbidden) }))
      .filter((f) => f.what.length > 0);
  }
}

/** Where secrets are meant to be: they may hold secrets (never a canary in clear), nothing else may. */
export function isDesignatedStore(rel: string): boolean {
  const p = rel.split(sep);
  return (
    rel === '.env' ||
    p[0] === 'secrets' ||
    p[0] === 'backups' ||
    (p[0] === 'clients' && (p[2] === 'secrets' || p[2] === 'vault'))
  );
}

export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesBelow(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/**
 * The state directory: every file outside the designated stores is searched for everything (gzip
 * archives decompressed first); a designated store only for the canaries, which must never be there in
 * clear (`allowedIn` lists the canaries a store holds by design, e.g. the .env values themselves).
 * `unpacked` receives the decompressed archives.
 */
export function scanStateDir(
  root: string,
  o: {
    canaries: Canaries;
    secrets: Forbidden[];
    unpacked: string;
    allowedIn?: Record<string, string[]>;
  },
): { findings: Finding[]; scanned: string[]; designated: { rel: string; mode: number }[] } {
  mkdirSync(o.unpacked, { recursive: true });
  const findings: Finding[] = [];
  const scanned: string[] = [];
  const designated: { rel: string; mode: number }[] = [];
  for (const file of filesBelow(root)) {
    const rel = relative(root, file);
    if (isDesignatedStore(rel)) {
      designated.push({ rel, mode: statSync(file).mode & 0o777 });
      const bytes = readFileSync(file);
      const what = [
        ...new Set(
          o.canaries
            .needles(o.allowedIn?.[rel] ?? [])
            .filter((n) => bytes.includes(n.needle))
            .map((n) => n.label),
        ),
      ];
      if (what.length > 0) findings.push({ where: `state ${rel} (a secret store, canary in clear)`, what });
      continue;
    }
    let target = file;
    if (file.endsWith('.gz')) {
      target = join(o.unpacked, rel.replaceAll(sep, '__'));
      writeFileSync(target, gunzipSync(readFileSync(file)));
    }
    scanned.push(rel);
    const what = scanFile(target, [...o.canaries.needles(), ...o.secrets]);
    if (what.length > 0) findings.push({ where: `state ${rel}`, what });
  }
  return { findings, scanned, designated };
}
