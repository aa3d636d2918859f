// Sending a change so that the journal keeps it whatever the node answers: one place for the gate and for
// the tools that journal their own changes (`*_trace_level`). A refused send is journalled `failed`, one
// sent but unanswered (a timeout, a cancel) `uncertain`, then the error goes on to the caller.
import {
  isKernelError,
  type ChangeEntry,
  type ChangeOutcome,
  type ToolContext,
} from '../../../kernel/sdk/index.ts';

/** What a change's record holds before it is sent: everything but its outcome and after-image. */
export type PendingChange = Omit<ChangeEntry, 'after' | 'outcome' | 'error'>;

export async function sendJournalled<R>(
  ctx: Pick<ToolContext, 'changes' | 'log'>,
  entry: PendingChange,
  apply: () => Promise<R>,
): Promise<R> {
  try {
    return await apply();
  } catch (err) {
    const outcome: ChangeOutcome = isUncertain(err) ? 'uncertain' : 'failed';
    try {
      await ctx.changes.record({ ...entry, after: null, outcome, error: errorText(err) });
    } catch (journal) {
      ctx.log.error({ err: journal }, 'a failed change could not be journalled');
    }
    throw err;
  }
}

/** Sent but unanswered: the node may or may not have applied it. */
function isUncertain(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return true;
  return isKernelError(err) && /timed? ?out|no answer|silent/i.test(err.message);
}

/** A coded error's text; anything else could carry what the node or a library said, so it stays in app.log. */
function errorText(err: unknown): string {
  const text = isKernelError(err) ? `${err.code}: ${err.message}` : 'the change failed (see app.log)';
  return text.slice(0, 500);
}
