import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { z } from 'zod';
import { CredentialError } from '../errors/index.ts';
import { describe, type RecordIdentity } from './identity.ts';

/** The algorithm behind nacl.secretbox, named in the file so a future format can say otherwise. */
export const CIPHER = 'xsalsa20-poly1305';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const json: z.ZodType<Json> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(json), z.record(z.string(), json)]),
);

const MAX_OPTIONS_BYTES = 64 * 1024;

/**
 * What a credential holds. `options` carries what a client needs beside the login, e.g. a pinned CA
 * or certificate PEM for the node's TLS, or a port; it is sealed with the password.
 */
export const credentialSecretSchema = z.strictObject({
  username: z.string().min(1).max(256),
  password: z.string().min(1).max(1024),
  options: z
    .record(z.string(), json)
    .refine((o) => Buffer.byteLength(JSON.stringify(o)) <= MAX_OPTIONS_BYTES, {
      message: `options must be at most ${MAX_OPTIONS_BYTES} bytes of JSON`,
    })
    .optional(),
  /**
   * Writes forbidden: every request made with this credential that is not a read (by the change table)
   * is refused before it is sent (READ_ONLY_CREDENTIAL). Sealed with the login, so it cannot be
   * dropped without the key; a copy in clear lets the listing show it.
   */
  read_only: z.boolean().optional(),
});
export type CredentialSecret = z.infer<typeof credentialSecretSchema>;

/** One record on disk: only the nonce and the box, plus a date the listing shows without decrypting. */
export interface SealedRecord {
  nonce: string;
  box: string;
  updatedAt: string;
  /** Clear copy of the sealed `read_only`, for the listing; set only when true. */
  readOnly?: true;
}

interface Plaintext {
  v: 1;
  id: RecordIdentity;
  updatedAt: string;
  secret: CredentialSecret;
}

/** Checks a secret handed in by a caller; the message names the field, never its value. */
export function checkSecret(secret: unknown): CredentialSecret {
  const parsed = credentialSecretSchema.safeParse(secret);
  if (!parsed.success) {
    const fields = new Set<string>();
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys')
        issue.keys.forEach((k) => fields.add(`${describe(k)} (unknown field)`));
      else fields.add(issue.path.join('.') || '(the credential itself)');
    }
    throw new CredentialError(
      `invalid credential: check ${[...fields].join(', ')}; username and password are required strings, options an object`,
    );
  }
  return parsed.data;
}

/**
 * Seals a secret with a fresh random 24-byte nonce. The identity and date travel inside the box, so
 * a record moved to another slot, another product or another client's file no longer opens.
 */
export function sealRecord(
  key: Uint8Array,
  id: RecordIdentity,
  secret: CredentialSecret,
  updatedAt: string,
): SealedRecord {
  // `read_only: false` is stored as its absence: one form per meaning, so the clear copy can be compared.
  const { read_only: readOnly, ...rest } = secret;
  const sealed: CredentialSecret = readOnly === true ? { ...rest, read_only: true } : rest;
  const plain: Plaintext = { v: 1, id: { ...id }, updatedAt, secret: sealed };
  const nonce = randomBytes(nacl.secretbox.nonceLength);
  const box = nacl.secretbox(Buffer.from(JSON.stringify(plain), 'utf8'), nonce, key);
  return {
    nonce: nonce.toString('base64'),
    box: Buffer.from(box).toString('base64'),
    updatedAt,
    ...(readOnly === true ? { readOnly: true as const } : {}),
  };
}

/** Opens a record for the identity asked for, or throws CredentialError naming only the slot. */
export function openRecord(key: Uint8Array, id: RecordIdentity, sealed: SealedRecord): CredentialSecret {
  const nonce = Buffer.from(sealed.nonce, 'base64');
  const box = Buffer.from(sealed.box, 'base64');
  const opened = nonce.length === nacl.secretbox.nonceLength ? nacl.secretbox.open(box, nonce, key) : null;
  if (!opened)
    throw tampered(id, 'it does not decrypt (damaged, tampered with, or sealed under another key)');
  let plain: Partial<Plaintext> | null;
  try {
    plain = JSON.parse(Buffer.from(opened.buffer, opened.byteOffset, opened.byteLength).toString('utf8'));
  } catch {
    throw tampered(id, 'its content is not valid');
  }
  const bound = plain?.id;
  if (
    plain?.v !== 1 ||
    bound?.client !== id.client ||
    bound.product !== id.product ||
    bound.kind !== id.kind ||
    bound.host !== id.host ||
    plain.updatedAt !== sealed.updatedAt
  ) {
    throw tampered(id, 'it was sealed for another client, product, kind or host');
  }
  const secret = credentialSecretSchema.safeParse(plain.secret);
  if (!secret.success) throw tampered(id, 'its content is not valid');
  // The listing's copy was edited (a read-only credential shown writable, or the reverse).
  if ((secret.data.read_only === true) !== (sealed.readOnly === true))
    throw tampered(id, 'its read_only attribute was changed outside the vault');
  return secret.data;
}

function tampered(id: RecordIdentity, why: string): CredentialError {
  return new CredentialError(
    `the ${id.kind} credentials of client ${id.client} for ${id.product} host ${id.host} cannot be opened: ${why}`,
  );
}
