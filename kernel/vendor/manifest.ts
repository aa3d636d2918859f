import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { serializeDocument, type Manifest } from '../integrity/documents.ts';
import { SHA512_HEX, hashEntries, type HashProgress } from '../integrity/hash.ts';
import { readPublisherKeys } from '../integrity/publishers.ts';
import {
  BUNDLE_SIG,
  MANIFEST_FILE,
  MANIFEST_SIG,
  PUBLISHERS_DIR,
  bundleIdOf,
  listCoveredFiles,
} from '../integrity/tree.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { assertPublisherId, isPublicHalf, publicPemOf } from './keys.ts';
import { signDetached } from './sign.ts';

export interface SignManifestOptions {
  root: string;
  privateKey: KeyObject;
  publisher: string;
  /** Write the public half to manifests/publishers/<publisher>.pem first (a new publisher, or a demo). */
  installPublic?: boolean;
  onProgress?: (p: HashProgress) => void;
  now?: () => number;
}

/**
 * The manifest of the tree below `root`: every file in the covered areas except the manifest and its
 * signature, and except plugin folders that carry their own bundle.sig (those are signed by their
 * publisher, not by whoever signs this release). Refuses a tree holding symbolic links or special files.
 */
export async function buildManifest(
  root: string,
  publisher: string,
  opts: { onProgress?: (p: HashProgress) => void; now?: () => number } = {},
): Promise<Manifest> {
  assertPublisherId(publisher);
  const all = await listCoveredFiles(root);
  const ownSigned = new Set(
    all.flatMap((e) => {
      const id = bundleIdOf(e.path);
      return id !== undefined && e.path === posix.join('plugins', id, BUNDLE_SIG) ? [id] : [];
    }),
  );
  const entries = all.filter((e) => {
    const id = bundleIdOf(e.path);
    return id === undefined || !ownSigned.has(id);
  });
  const irregular = entries.filter((e) => e.irregular !== undefined);
  if (irregular.length > 0)
    throw new Error(
      `a shipped tree holds regular files only; found ${irregular.map((e) => `${e.path} (${e.irregular})`).join(', ')}`,
    );
  const hashes = await hashEntries(root, entries, opts.onProgress);
  const unhashed = entries.filter((e) => !SHA512_HEX.test(hashes.get(e.path) ?? ''));
  if (unhashed.length > 0)
    throw new Error(
      `cannot hash ${unhashed.map((e) => `${e.path} (${hashes.get(e.path) ?? 'vanished'})`).join(', ')}`,
    );
  return {
    format: 1,
    publisher,
    generated_at: new Date((opts.now ?? Date.now)()).toISOString(),
    files: Object.fromEntries(entries.map((e) => [e.path, hashes.get(e.path) as string])),
  };
}

/**
 * Regenerates and signs manifests/manifest.json + manifest.sig. The signing key must be the one
 * installed as manifests/publishers/<publisher>.pem (or installed now with `installPublic`), otherwise
 * the result would be a manifest no server can verify.
 */
export async function signManifest(
  opts: SignManifestOptions,
): Promise<{ manifest: Manifest; files: number }> {
  const { root, privateKey, publisher } = opts;
  assertPublisherId(publisher);
  const publicPath = join(root, PUBLISHERS_DIR, `${publisher}.pem`);
  if (opts.installPublic) {
    if (existsSync(publicPath) && !isPublicHalf(privateKey, readFileSync(publicPath)))
      throw new Error(
        `${PUBLISHERS_DIR}/${publisher}.pem holds another key; remove it first if the publisher key really changes`,
      );
    mkdirSync(join(root, PUBLISHERS_DIR), { recursive: true, mode: 0o755 });
    writeFileAtomic(publicPath, publicPemOf(privateKey), 0o644);
  } else if (!existsSync(publicPath)) {
    throw new Error(
      `${PUBLISHERS_DIR}/${publisher}.pem is not installed (use --install-public for a new publisher)`,
    );
  } else if (!isPublicHalf(privateKey, readFileSync(publicPath))) {
    throw new Error(`the signing key is not the key installed as ${PUBLISHERS_DIR}/${publisher}.pem`);
  }
  const manifest = await buildManifest(root, publisher, {
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  const bytes = serializeDocument(manifest);
  // A crash between the two writes leaves a pair that fails verification loudly, never one that passes
  // with stale content; running the signer again repairs it.
  writeFileAtomic(join(root, MANIFEST_SIG), signDetached(privateKey, bytes), 0o644);
  writeFileAtomic(join(root, MANIFEST_FILE), bytes, 0o644);
  return { manifest, files: Object.keys(manifest.files).length };
}

/** The id of the installed publisher key that is the public half of `privateKey`, if any. */
export async function findInstalledPublisher(
  root: string,
  privateKey: KeyObject,
): Promise<string | undefined> {
  const { keys } = await readPublisherKeys(root);
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return keys.find((k) => k.key.export({ type: 'spki', format: 'der' }).equals(der))?.id;
}
