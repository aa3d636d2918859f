// A call that reads several nodes (or files) one after the other goes on past one that fails with a coded
// error (unreachable, no credential, its budget spent) and lists it beside what the others answered. What
// is not one node's failure ends the call: a defect (an error that is not coded, or not for the caller's
// eyes), the caller's own refusal (ProfilePermissionError: the same for every node, so the call is DENIED,
// never one node "failed"), and a cancelled call.
import { isKernelError, ProfilePermissionError, type KernelError } from '../../../kernel/sdk/index.ts';

/** A failure as an answer lists it. */
export interface CodedFailure {
  code: string;
  message: string;
  retry_after_seconds?: number;
}

export interface NodeFailure {
  node: string;
  error: CodedFailure;
  /** The error itself, for a caller that rethrows it when no node answered. */
  cause: KernelError;
}

/** `err` when it is one part's coded failure, to be listed while the call goes on; anything else is thrown. */
export function partFailure(err: unknown, signal?: AbortSignal): KernelError {
  if (!isKernelError(err) || !err.expose || err instanceof ProfilePermissionError || signal?.aborted)
    throw err;
  return err;
}

/** The failure's listed form. */
export function codedFailure(err: KernelError): CodedFailure {
  return {
    code: err.code,
    message: err.message,
    ...(err.retryAfterSeconds !== undefined ? { retry_after_seconds: err.retryAfterSeconds } : {}),
  };
}

/** `node`'s failure, listed, or `err` thrown when it is not one node's (see partFailure). */
export function nodeFailure(node: string, err: unknown, signal?: AbortSignal): NodeFailure {
  const cause = partFailure(err, signal);
  return { node, error: codedFailure(cause), cause };
}

/**
 * `read` on each host, one after the other (each node has its own budget, and a cluster is a handful of
 * nodes): what each answered, and the failures of those that failed.
 */
export async function eachNode<T>(
  hosts: readonly string[],
  read: (host: string) => Promise<T>,
  signal?: AbortSignal,
): Promise<{ answered: T[]; failed: NodeFailure[] }> {
  const answered: T[] = [];
  const failed: NodeFailure[] = [];
  for (const host of hosts) {
    try {
      answered.push(await read(host));
    } catch (err) {
      failed.push(nodeFailure(host, err, signal));
    }
  }
  return { answered, failed };
}

/** Nothing answered: the call fails with the one error there is (or the first of several). */
export function failIfNoneAnswered(answered: readonly unknown[], failed: readonly { cause: Error }[]): void {
  if (answered.length === 0 && failed[0]) throw failed[0].cause;
}
