import { z } from 'zod';
import { SHA512_HEX } from './hash.ts';
import { PUBLISHER_ID } from './publishers.ts';
import { BUNDLE_FILE, BUNDLE_SIG, isSafeRelativePath } from './tree.ts';

/** Signed documents are small; a huge one is refused before it is parsed. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

const fileMap = z
  .record(z.string(), z.string().regex(SHA512_HEX, 'a lowercase SHA-512 hex digest'))
  .refine(
    (m) => Object.keys(m).every(isSafeRelativePath),
    'file paths must be relative POSIX paths without ..',
  );

/** `manifests/manifest.json`: SHA-512 of every shipped file, signed into `manifests/manifest.sig`. */
export const manifestSchema = z
  .object({
    format: z.literal(1),
    publisher: z.string().regex(PUBLISHER_ID),
    generated_at: z.iso.datetime(),
    files: fileMap,
  })
  .strict();
export type Manifest = z.infer<typeof manifestSchema>;

/** `plugins/<id>/bundle.json`: a bundle signed on its own; paths are relative to the bundle folder. */
export const bundleManifestSchema = z
  .object({
    format: z.literal(1),
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/),
    version: z.string().min(1).max(64),
    publisher: z.string().regex(PUBLISHER_ID),
    generated_at: z.iso.datetime(),
    files: fileMap.refine(
      (m) => !Object.hasOwn(m, BUNDLE_FILE) && !Object.hasOwn(m, BUNDLE_SIG),
      'a bundle cannot list its own bundle.json or bundle.sig',
    ),
  })
  .strict();
export type BundleManifest = z.infer<typeof bundleManifestSchema>;

/** Parses a signed document; throws an Error whose message says what is wrong. */
export function parseDocument<T>(schema: z.ZodType<T>, bytes: Uint8Array, what: string): T {
  if (bytes.length > MAX_DOCUMENT_BYTES)
    throw new Error(`${what} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (err) {
    throw new Error(`${what} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${what} is malformed: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

/** The bytes a signer writes (and signs): stable key order, two-space indent, final newline. */
export function serializeDocument(doc: Manifest | BundleManifest): Buffer {
  const files = Object.fromEntries(
    Object.entries(doc.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return Buffer.from(`${JSON.stringify({ ...doc, files }, null, 2)}\n`, 'utf8');
}
