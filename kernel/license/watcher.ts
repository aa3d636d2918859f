import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { watch } from 'chokidar';

export interface FileWatch {
  close(): Promise<void>;
}

/**
 * Calls `onChange` once a file has been quiet for `debounceMs` after it was created, written, replaced
 * or removed. The directory is watched rather than the file: replacing a file by rename (what careful
 * tools do) swaps the inode a file watch would be attached to. The quiet period keeps a copy still in
 * progress from being evaluated half-written. Resolves once the watch is in place.
 */
export async function watchFile(
  path: string,
  onChange: () => void,
  opts: { debounceMs?: number; onError?: (err: unknown) => void } = {},
): Promise<FileWatch> {
  const file = resolve(path);
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const watcher = watch(dir, {
    ignoreInitial: true,
    depth: 0,
    ignored: (p: string) => p !== dir && p !== file && p !== join(dir, basename(file)),
  });
  let timer: NodeJS.Timeout | undefined;
  watcher.on('all', (_event, p) => {
    if (resolve(p) !== file) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, opts.debounceMs ?? 300);
  });
  watcher.on('error', (err) => opts.onError?.(err));
  await new Promise<void>((ready) => watcher.once('ready', ready));
  return {
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
