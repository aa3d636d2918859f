// Fault injection for audit-first-crash.test.ts, loaded into the server process with `--import` before
// kernel/main.ts: the process SIGKILLs itself at the moment a tool call's handler is entered, that is
// when the runner opens the call's node-request scope (runWithNodeRequests, right before it calls the
// handler). Whatever the runner has not put in the file by then is lost, as in a real crash there.
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as CallNodeRequestsModule from '../../../kernel/mcp/call-node-requests.ts';

// The server's own module (same URL, so the same class): the server runs with its install as cwd.
const { CallNodeRequests } = (await import(
  pathToFileURL(join(process.cwd(), 'kernel/mcp/call-node-requests.ts')).href
)) as typeof CallNodeRequestsModule;

const run = AsyncLocalStorage.prototype.run;
AsyncLocalStorage.prototype.run = function <R>(
  this: AsyncLocalStorage<unknown>,
  store: unknown,
  fn: (...args: unknown[]) => R,
  ...args: unknown[]
): R {
  if (store instanceof CallNodeRequests) process.kill(process.pid, 'SIGKILL');
  return run.call(this, store, fn, ...args) as R;
};
