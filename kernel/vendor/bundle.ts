import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join, posix, resolve } from 'node:path';
import {
  bundleManifestSchema,
  parseDocument,
  serializeDocument,
  type BundleManifest,
} from '../integrity/documents.ts';
import { SHA512_HEX, hashEntries } from '../integrity/hash.ts';
import { BUNDLE_FILE, BUNDLE_SIG, listFilesUnder } from '../integrity/tree.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { assertPublisherId } from './keys.ts';
import { signDetached } from './sign.ts';

export interface SignBundleOptions {
  /** The bundle folder, e.g. `plugins/acme-reports`; its name is the bundle id. */
  dir: string;
  privateKey: KeyObject;
  publisher: string;
  /** Recorded in bundle.json; defaults to the version of an existing bundle.json. */
  version?: string;
  now?: () => number;
}

/**
 * Writes `bundle.json` (SHA-512 of every file in the folder) and `bundle.sig` into a plugin bundle, so
 * that it can be dropped into any server's plugins/ that trusts the publisher, without re-signing that
 * server's manifest. The folder's name is the bundle id, which the signature binds.
 */
export async function signBundle(
  opts: SignBundleOptions,
): Promise<{ bundle: BundleManifest; files: number }> {
  assertPublisherId(opts.publisher);
  const dir = resolve(opts.dir);
  const id = basename(dir);
  const version = opts.version ?? previousVersion(dir);
  if (!version) throw new Error(`no version given and ${BUNDLE_FILE} has none to reuse`);
  const root = join(dir, '..');
  const own = new Set([posix.join(id, BUNDLE_FILE), posix.join(id, BUNDLE_SIG)]);
  const entries = (await listFilesUnder(root, id)).filter((e) => !own.has(e.path));
  const irregular = entries.filter((e) => e.irregular !== undefined);
  if (irregular.length > 0)
    throw new Error(`a bundle holds regular files only; found ${irregular.map((e) => e.path).join(', ')}`);
  if (entries.length === 0) throw new Error(`${dir} holds no files`);
  const hashes = await hashEntries(root, entries);
  const unhashed = entries.filter((e) => !SHA512_HEX.test(hashes.get(e.path) ?? ''));
  if (unhashed.length > 0) throw new Error(`cannot hash ${unhashed.map((e) => e.path).join(', ')}`);
  const bundle = parseDocument(
    bundleManifestSchema,
    serializeDocument({
      format: 1,
      id,
      version,
      publisher: opts.publisher,
      generated_at: new Date((opts.now ?? Date.now)()).toISOString(),
      files: Object.fromEntries(
        entries.map((e) => [e.path.slice(id.length + 1), hashes.get(e.path) as string]),
      ),
    }),
    BUNDLE_FILE,
  );
  const bytes = serializeDocument(bundle);
  writeFileAtomic(join(dir, BUNDLE_SIG), signDetached(opts.privateKey, bytes), 0o644);
  writeFileAtomic(join(dir, BUNDLE_FILE), bytes, 0o644);
  return { bundle, files: entries.length };
}

function previousVersion(dir: string): string | undefined {
  try {
    return parseDocument(bundleManifestSchema, readFileSync(join(dir, BUNDLE_FILE)), BUNDLE_FILE).version;
  } catch {
    return undefined;
  }
}
