// Starting a process on the server's TypeScript loader (register.mjs): the server itself, from npm start,
// the container entry, the tests' and the benchmarks' server processes.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The loader's place in an install. */
export const SERVER_LOADER = 'kernel/loader/register.mjs';

/**
 * Node arguments that run `entry` (a .ts file) on the loader of the install at `root` (by default the
 * one this file belongs to: an install runs its own signed loader, never another tree's), with
 * `preload` modules imported after the loader and before the entry.
 */
export function serverLoaderArgs(entry: string, o: { root?: string; preload?: string[] } = {}): string[] {
  const root = o.root ?? resolve(import.meta.dirname, '../..');
  return [
    '--import',
    pathToFileURL(join(root, SERVER_LOADER)).href,
    ...(o.preload ?? []).flatMap((p) => ['--import', p]),
    entry,
  ];
}
