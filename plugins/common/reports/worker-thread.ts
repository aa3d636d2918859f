import { Worker, type ResourceLimits } from 'node:worker_threads';

const TSX = import.meta.resolve('tsx/esm/api');
// Node 20 does not run the parent's `--import tsx` in a worker before loading its entry, so a .ts entry
// is refused; the worker registers tsx itself, then imports the entry (a file of this bundle, covered by
// its integrity manifest like every other).
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

/**
 * Starts a worker thread on `entry`, a .ts file beside this one; the entry reads `data` from
 * `workerData.data`. It gets nothing of the parent's command line: the bootstrap loads what it needs.
 */
export function startWorker(entry: URL, data: unknown, resourceLimits?: ResourceLimits): Worker {
  return new Worker(BOOTSTRAP, {
    eval: true,
    execArgv: [],
    workerData: { tsx: TSX, entry: entry.href, data },
    ...(resourceLimits ? { resourceLimits } : {}),
  });
}
