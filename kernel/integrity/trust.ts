import { join } from 'node:path';
import { manifestSchema, parseDocument, type Manifest } from './documents.ts';
import { sha512File } from './hash.ts';
import { readPublisherKeys, type KeyProblem, type PublisherKey } from './publishers.ts';
import { verifyDetached } from './signature.ts';
import type { IntegrityMode } from './types.ts';
import { MANIFEST_FILE, MANIFEST_SIG, readOptional } from './tree.ts';

/** The main manifest's signature verdict, before any file is compared. */
export interface TrustRoot {
  status: 'valid' | 'unsigned' | 'invalid';
  reason?: string;
  /** Present when the signature verifies. */
  manifest?: Manifest;
  /** The publisher the manifest names (even when its signature fails). */
  publisher?: string;
  /** Every key in manifests/publishers/; `vouched` only for those the valid manifest lists unchanged. */
  keys: PublisherKey[];
  keyProblems: KeyProblem[];
}

/**
 * Reads manifests/manifest.json and .sig below `root` and checks the signature with the key of the
 * publisher the manifest names, read from manifests/publishers/<publisher>.pem. That key is itself a
 * listed file: swapping it without re-signing fails the hash comparison, and adding a second key file
 * leaves it unvouched (and is an unlisted file). Who can rewrite the keys and re-sign everything is
 * beyond what a check inside the tree can catch (docs/integrity-and-license.md).
 */
export async function readTrustRoot(root: string): Promise<TrustRoot> {
  const { keys, problems: keyProblems } = await readPublisherKeys(root);
  const base = { keys, keyProblems };
  const manifestBytes = await readOptional(join(root, MANIFEST_FILE));
  if (manifestBytes === null) return { ...base, status: 'unsigned', reason: `no ${MANIFEST_FILE}` };
  const sig = await readOptional(join(root, MANIFEST_SIG));
  if (sig === null) return { ...base, status: 'unsigned', reason: `no ${MANIFEST_SIG}` };

  let manifest: Manifest;
  try {
    manifest = parseDocument(manifestSchema, manifestBytes, MANIFEST_FILE);
  } catch (err) {
    return { ...base, status: 'invalid', reason: (err as Error).message };
  }
  const publisher = manifest.publisher;
  const signer = keys.find((k) => k.id === publisher);
  if (!signer) {
    const problem = keyProblems.find((p) => p.path.endsWith(`/${publisher}.pem`));
    const why = problem ? `unusable (${problem.reason})` : 'not installed in manifests/publishers/';
    return { ...base, status: 'invalid', publisher, reason: `publisher key "${publisher}" ${why}` };
  }
  if (!verifyDetached(signer.key, manifestBytes, sig.toString('utf8'))) {
    return {
      ...base,
      status: 'invalid',
      publisher,
      reason: `${MANIFEST_SIG} does not verify with the key of publisher "${publisher}"`,
    };
  }
  for (const k of keys) {
    const expected = manifest.files[k.path];
    k.vouched = expected !== undefined && expected === (await sha512File(join(root, k.path)));
  }
  return { ...base, status: 'valid', manifest, publisher };
}

/**
 * The publisher keys a consumer (the license gate) may trust: in `enforce` mode the vouched ones only
 * (none when the manifest is not valid); in `warn` mode every key on disk, since a development checkout
 * has no signed manifest to vouch for them.
 */
export function usableKeys(trust: Pick<TrustRoot, 'keys'>, mode: IntegrityMode): PublisherKey[] {
  return mode === 'warn' ? [...trust.keys] : trust.keys.filter((k) => k.vouched);
}
