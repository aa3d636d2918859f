import { readFileSync, statSync, type Stats } from 'node:fs';
import { z } from 'zod';
import { CredentialError } from '../errors/index.ts';
import { writeJsonAtomic } from '../store/atomic-file.ts';
import { parseSlotKey } from './identity.ts';
import { PBKDF2_DIGEST, PBKDF2_ITERATIONS, DERIVED_KEY_BYTES, SALT_BYTES } from './key-derivation.ts';
import { CIPHER } from './sealed-record.ts';

export const VAULT_FORMAT = 'uc-mcp-credential-vault';
export const VAULT_FORMAT_VERSION = 1;

const b64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);

const sealedSchema = z.strictObject({
  nonce: b64,
  box: b64,
  updatedAt: z.string().max(40),
  // The listing's copy of the sealed read_only attribute; openRecord refuses a record where they differ.
  readOnly: z.literal(true).optional(),
});

// Version 1 pins the KDF parameters: a file asking for fewer iterations is refused, not obeyed.
const docSchema = z.strictObject({
  format: z.literal(VAULT_FORMAT),
  version: z.literal(VAULT_FORMAT_VERSION),
  client: z.string(),
  kdf: z.strictObject({
    algorithm: z.literal('PBKDF2'),
    digest: z.literal(PBKDF2_DIGEST),
    iterations: z.literal(PBKDF2_ITERATIONS),
    keyBytes: z.literal(DERIVED_KEY_BYTES),
    salt: b64,
  }),
  cipher: z.literal(CIPHER),
  keyCheck: b64,
  records: z.record(z.string(), sealedSchema).refine((r) => Object.keys(r).every((k) => parseSlotKey(k)), {
    message: 'a record key is not product/kind/host',
  }),
});

export type VaultDoc = z.infer<typeof docSchema>;

export function newVaultDoc(client: string, salt: Uint8Array, keyCheck: string): VaultDoc {
  return {
    format: VAULT_FORMAT,
    version: VAULT_FORMAT_VERSION,
    client,
    kdf: {
      algorithm: 'PBKDF2',
      digest: PBKDF2_DIGEST,
      iterations: PBKDF2_ITERATIONS,
      keyBytes: DERIVED_KEY_BYTES,
      salt: Buffer.from(salt).toString('base64'),
    },
    cipher: CIPHER,
    keyCheck,
    records: {},
  };
}

export function docSalt(doc: VaultDoc): Buffer {
  return Buffer.from(doc.kdf.salt, 'base64');
}

interface Cached {
  signature: string;
  doc: VaultDoc | undefined;
}

/**
 * One client's credentials.json. The parsed document (ciphertexts only) is cached and revalidated
 * with one stat per read, so a warm read costs no file read or parse, yet a file replaced by another
 * process (a restore, the test helper CLI) is seen at once. Writes are atomic (temp, fsync, rename):
 * a crash leaves the previous file whole.
 */
export class VaultFile {
  private cached: Cached | undefined;

  constructor(
    readonly path: string,
    private readonly client: string,
  ) {}

  read(): VaultDoc | undefined {
    let st: Stats | undefined;
    try {
      st = statOrUndefined(this.path);
    } catch (err) {
      throw this.damaged(`it cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    const signature = st ? fileSignature(st) : 'absent';
    if (this.cached?.signature === signature) return this.cached.doc;
    const doc = st ? this.parse() : undefined;
    this.cached = { signature, doc };
    return doc;
  }

  write(doc: VaultDoc): void {
    writeJsonAtomic(this.path, doc, 0o600);
    const st = statOrUndefined(this.path);
    this.cached = st ? { signature: fileSignature(st), doc } : undefined;
  }

  private parse(): VaultDoc {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (err) {
      throw this.damaged(`it does not parse (${(err as NodeJS.ErrnoException).code ?? 'invalid JSON'})`);
    }
    const parsed = docSchema.safeParse(raw);
    if (!parsed.success) {
      const where = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(root)'))].slice(0, 5);
      throw this.damaged(`unexpected content at ${where.join(', ')}`);
    }
    const doc = parsed.data;
    if (doc.client !== this.client) {
      throw this.damaged('it belongs to another client (copied or moved file)');
    }
    if (docSalt(doc).length < SALT_BYTES) throw this.damaged('its salt is too short');
    return doc;
  }

  private damaged(why: string): CredentialError {
    return new CredentialError(`the credential store of client ${this.client} cannot be used: ${why}`);
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

// Every write is a rename, so the inode changes; size and times catch an in-place edit.
function fileSignature(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}
