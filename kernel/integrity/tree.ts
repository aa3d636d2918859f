import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';

// What ships (the Dockerfile copies exactly these) and therefore what the manifest covers.
export const COVERED_DIRS = ['kernel', 'plugins', 'profiles/_default', 'scripts', 'manifests'] as const;
export const COVERED_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'] as const;

export const MANIFEST_FILE = 'manifests/manifest.json';
export const MANIFEST_SIG = 'manifests/manifest.sig';
export const PUBLISHERS_DIR = 'manifests/publishers';
export const PLUGINS_DIR = 'plugins';
export const BUNDLE_FILE = 'bundle.json';
export const BUNDLE_SIG = 'bundle.sig';

/** The manifest cannot list its own hash or its signature's. */
const SELF = new Set<string>([MANIFEST_FILE, MANIFEST_SIG]);

export interface TreeEntry {
  /** POSIX path relative to the root. */
  path: string;
  /**
   * Set for anything but a regular file. Shipped trees hold regular files only: a symbolic link could
   * point outside the covered tree, where nothing is hashed, so it is reported instead of followed.
   */
  irregular?: string;
}

/** Every file in the covered areas below `root`, sorted, symbolic links not followed. */
export async function listCoveredFiles(root: string): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  for (const dir of COVERED_DIRS) await walk(root, dir, out);
  for (const file of COVERED_FILES) {
    const entry = await describe(root, file);
    if (entry) out.push(entry);
  }
  return out.filter((e) => !SELF.has(e.path)).sort(byPath);
}

/** Every file below `root/rel`, sorted, symbolic links not followed; nothing when it does not exist. */
export async function listFilesUnder(root: string, rel: string): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  await walk(root, rel, out);
  return out.sort(byPath);
}

function byPath(a: TreeEntry, b: TreeEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

async function walk(root: string, rel: string, out: TreeEntry[]): Promise<void> {
  let names: string[];
  try {
    names = await readdir(join(root, rel));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const name of names) {
    const child = posix.join(rel, name);
    const st = await lstat(join(root, child));
    if (st.isDirectory()) await walk(root, child, out);
    else if (st.isFile()) out.push({ path: child });
    else if (st.isSymbolicLink())
      out.push({ path: child, irregular: `symlink -> ${await readlink(join(root, child))}` });
    else out.push({ path: child, irregular: 'special file' });
  }
}

async function describe(root: string, rel: string): Promise<TreeEntry | null> {
  try {
    const st = await lstat(join(root, rel));
    if (st.isFile()) return { path: rel };
    if (st.isSymbolicLink()) return { path: rel, irregular: `symlink -> ${await readlink(join(root, rel))}` };
    return { path: rel, irregular: 'special file' };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** `plugins/<id>/...` gives `<id>`; a file directly in plugins/ belongs to no bundle. */
export function bundleIdOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts.length >= 3 && parts[0] === PLUGINS_DIR ? parts[1] : undefined;
}

/**
 * A path a signed document may name: relative, POSIX, no `.`/`..` segments, no empty segments, no
 * backslashes or NUL. Anything else could make the verifier read outside the tree.
 */
export function isSafeRelativePath(p: string): boolean {
  if (p.length === 0 || p.length > 1024 || p.startsWith('/') || /[\\\0]/.test(p)) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** The file's bytes, or null when it does not exist. */
export async function readOptional(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
