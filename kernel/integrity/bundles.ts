import { join, posix } from 'node:path';
import { bundleManifestSchema, parseDocument, type BundleManifest } from './documents.ts';
import type { PublisherKey } from './publishers.ts';
import { verifyDetached } from './signature.ts';
import { BUNDLE_FILE, BUNDLE_SIG, PLUGINS_DIR, readOptional, type TreeEntry } from './tree.ts';
import type { BundleReport, FileFinding } from './types.ts';

export interface OwnBundleInput {
  root: string;
  id: string;
  /** The files on disk below plugins/<id>/. */
  entries: readonly TreeEntry[];
  hashes: ReadonlyMap<string, string>;
  /** Keys allowed to sign a bundle. */
  keys: readonly PublisherKey[];
  /**
   * Set when the main manifest is not valid: the keys used here are then nobody's trust root, so a
   * bundle that checks out can be no better than the main manifest's status.
   */
  cap?: 'unsigned' | 'invalid';
}

/** A bundle that is not in the main manifest must carry bundle.json + bundle.sig from a trusted publisher. */
export async function verifyOwnBundle(
  input: OwnBundleInput,
): Promise<{ report: BundleReport; checked: number }> {
  const { root, id, entries, hashes, keys } = input;
  const dir = posix.join(PLUGINS_DIR, id);
  const unlisted = (): FileFinding[] =>
    entries.map((e) => finding(e.path, 'unlisted', id, undefined, hashes.get(e.path)));
  const refuse = (status: 'unsigned' | 'invalid', reason: string, extra: Partial<BundleReport> = {}) => ({
    report: { id, status, source: 'bundle' as const, reason, files: unlisted(), ...extra },
    checked: 0,
  });

  const docBytes = await readOptional(join(root, dir, BUNDLE_FILE));
  if (docBytes === null)
    return {
      report: {
        id,
        status: 'unsigned',
        source: 'none',
        reason: `not in the integrity manifest and no ${BUNDLE_FILE}`,
        files: unlisted(),
      },
      checked: 0,
    };
  const sig = await readOptional(join(root, dir, BUNDLE_SIG));
  if (sig === null) return refuse('unsigned', `${dir}/${BUNDLE_FILE} has no ${BUNDLE_SIG}`);

  let doc: BundleManifest;
  try {
    doc = parseDocument(bundleManifestSchema, docBytes, `${dir}/${BUNDLE_FILE}`);
  } catch (err) {
    return refuse('invalid', (err as Error).message);
  }
  const meta = { publisher: doc.publisher, version: doc.version };
  // The id is signed; a bundle copied under another folder name is not the bundle that was signed.
  if (doc.id !== id)
    return refuse('invalid', `${BUNDLE_FILE} is for bundle "${doc.id}", found in ${dir}/`, meta);
  const key = keys.find((k) => k.id === doc.publisher);
  if (!key) return refuse('invalid', `publisher "${doc.publisher}" is not a trusted publisher`, meta);
  if (!verifyDetached(key.key, docBytes, sig.toString('utf8')))
    return refuse(
      'invalid',
      `${BUNDLE_SIG} does not verify with the key of publisher "${doc.publisher}"`,
      meta,
    );

  const files: FileFinding[] = [];
  for (const [rel, expected] of Object.entries(doc.files)) {
    const path = posix.join(dir, rel);
    const actual = hashes.get(path);
    if (actual === undefined) files.push(finding(path, 'missing', id, expected));
    else if (actual !== expected) files.push(finding(path, 'modified', id, expected, actual));
  }
  const own = new Set([posix.join(dir, BUNDLE_FILE), posix.join(dir, BUNDLE_SIG)]);
  for (const e of entries) {
    const rel = e.path.slice(dir.length + 1);
    if (!own.has(e.path) && !Object.hasOwn(doc.files, rel))
      files.push(finding(e.path, 'unlisted', id, undefined, hashes.get(e.path)));
  }
  const checked = Object.keys(doc.files).length;
  if (files.length > 0)
    return {
      report: { id, status: 'modified', source: 'bundle', ...meta, reason: describe(files), files },
      checked,
    };
  if (input.cap)
    return {
      report: {
        id,
        status: input.cap,
        source: 'bundle',
        ...meta,
        reason: `signature verifies, but the key of "${doc.publisher}" is not vouched for by a valid integrity manifest`,
        files,
      },
      checked,
    };
  return { report: { id, status: 'valid', source: 'bundle', ...meta, files }, checked };
}

export function finding(
  path: string,
  state: FileFinding['state'],
  bundle: string | undefined,
  expected?: string,
  actual?: string,
): FileFinding {
  return {
    path,
    state,
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
    ...(bundle !== undefined ? { bundle } : {}),
  };
}

/** "2 modified, 1 unlisted" */
export function describe(files: readonly FileFinding[]): string {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.state, (counts.get(f.state) ?? 0) + 1);
  return [...counts].map(([state, n]) => `${n} ${state}`).join(', ');
}
