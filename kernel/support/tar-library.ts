// node-tar, loaded by the first archive a backup, a restore or an upgrade reads or writes: its one
// minified module was about 140 ms of the server's startup CPU, for work most runs never do. Concurrent
// first uses share one load; a failed load is retried by the next use.
import type * as Tar from 'tar';

let pending: Promise<typeof Tar> | undefined;

export function loadTar(): Promise<typeof Tar> {
  pending ??= import('tar').catch((err: unknown) => {
    pending = undefined;
    throw err;
  });
  return pending;
}
