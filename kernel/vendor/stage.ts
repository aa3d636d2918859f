import type { KeyObject } from 'node:crypto';
import { copyFile, mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PUBLISHERS_DIR, listCoveredFiles } from '../integrity/tree.ts';
import { signManifest } from './manifest.ts';

export interface StageOptions {
  /** The tree to copy (the project root). */
  from: string;
  /** An empty or absent directory outside `from`. */
  to: string;
  privateKey: KeyObject;
  publisher: string;
  /** Link `to/node_modules` to `from/node_modules` so the staged kernel runs (default true). */
  linkNodeModules?: boolean;
}

/**
 * Builds a signed install: copies what ships (the covered areas, minus any existing manifest), installs
 * the publisher's public key and signs a manifest for the copy. The demo runs the server from such a
 * copy under its throw-away vendor key, so integrity can stay `enforce` without a key in the repository;
 * tests use it to verify a realistic tree.
 */
export async function stageSignedTree(
  opts: StageOptions,
): Promise<{ root: string; files: number; ms: number }> {
  const started = performance.now();
  const entries = await listCoveredFiles(opts.from);
  const irregular = entries.filter((e) => e.irregular !== undefined);
  if (irregular.length > 0)
    throw new Error(`cannot stage ${irregular.map((e) => `${e.path} (${e.irregular})`).join(', ')}`);
  await mkdir(opts.to, { recursive: true });
  for (const e of entries) {
    // Keys of the source tree's publishers stay (they are still trusted there); the staging key is added.
    const target = join(opts.to, e.path);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(opts.from, e.path), target);
  }
  await mkdir(join(opts.to, PUBLISHERS_DIR), { recursive: true });
  if (opts.linkNodeModules !== false)
    await symlink(join(opts.from, 'node_modules'), join(opts.to, 'node_modules'), 'dir');
  const { files } = await signManifest({
    root: opts.to,
    privateKey: opts.privateKey,
    publisher: opts.publisher,
    installPublic: true,
  });
  return { root: opts.to, files, ms: Math.round(performance.now() - started) };
}
