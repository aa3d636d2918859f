// Reads a .tar.gz held in memory into a map of path -> bytes, refusing anything a safe package never holds:
// links, devices, absolute paths, `..`, duplicate names, oversized content. Nothing is written to disk here,
// so a hostile archive cannot place a file anywhere; the caller decides what to write after validating.
import type { ReadEntry } from 'tar';
import { isSafeRelativePath } from '../integrity/tree.ts';
import { loadTar } from '../support/tar-library.ts';
import { UpgradeRefused } from './errors.ts';

const REGULAR = new Set(['File', 'OldFile', 'ContiguousFile']);

export async function readTarGz(archive: Buffer, maxUnpackedBytes: number): Promise<Map<string, Buffer>> {
  if (archive.length < 2 || archive[0] !== 0x1f || archive[1] !== 0x8b)
    throw new UpgradeRefused('archive', 'the package is not a gzip archive');
  const files = new Map<string, Buffer>();
  const dirs = new Set<string>();
  let total = 0;
  const { Parser } = await loadTar();
  return new Promise((resolve, reject) => {
    // strict: every tar warning (bad checksum, truncated input, invalid entry) is an error, not a skip.
    const parser = new Parser({ strict: true, gzip: true });
    const fail = (why: string): void => parser.abort(new UpgradeRefused('archive', why));
    parser.on('entry', (entry: ReadEntry) => {
      const path = entry.type === 'Directory' ? entry.path.replace(/\/$/, '') : entry.path;
      if (!isSafeRelativePath(path)) return fail(`unsafe path in the archive: ${JSON.stringify(entry.path)}`);
      if (entry.type === 'Directory') {
        dirs.add(path);
        return entry.resume();
      }
      if (!REGULAR.has(entry.type))
        return fail(`${path}: a ${entry.type} entry; a package holds regular files only`);
      if (files.has(path) || dirs.has(path)) return fail(`${path} appears twice in the archive`);
      total += entry.size;
      if (total > maxUnpackedBytes) return fail(`the archive unpacks to more than ${maxUnpackedBytes} bytes`);
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => files.set(path, Buffer.concat(chunks)));
    });
    parser.on('error', (err: Error) =>
      reject(err instanceof UpgradeRefused ? err : new UpgradeRefused('archive', err.message)),
    );
    parser.on('end', () => {
      for (const d of dirs)
        if (files.has(d)) return reject(new UpgradeRefused('archive', `${d} is both a file and a folder`));
      resolve(files);
    });
    parser.end(archive);
  });
}
