// What makes a journalled change undoable, checked before anything is read from the node: it was
// applied, the journal kept its images whole, and no other change already undid it. And, once the
// object is read again, that it still is as the change left it: an undo built from an older image would
// otherwise overwrite what someone did since.
import type { ChangeJournalView, ChangeRecord } from '../../../kernel/sdk/index.ts';
import { AlreadyUndoneError, ChangedSinceChangeError, NoInverseError } from '../../../kernel/sdk/index.ts';
import type { Json } from '../axl/schema.ts';
import type { FieldChange } from './field-diff.ts';
import { diffImages } from './field-diff.ts';
import type { Plain } from './values.ts';
import { alignRedacted } from './undo-redacted.ts';
import { maskSecrets, normalise, sameContent } from './values.ts';

/** The most diff entries a refusal's message names (the details carry them all). */
const NAMED_PATHS = 8;

/**
 * Refuses a change that did not apply, an undo (its record holds the inverse requests, not a change
 * the tools make), or one whose images the journal kept only as a digest.
 */
export function assertInvertible(record: ChangeRecord): void {
  if (record.outcome !== 'applied')
    throw new NoInverseError(
      `change ${record.id} ${record.outcome === 'failed' ? 'failed' : 'has an uncertain outcome (its answer was lost)'}: there is no applied change to undo${record.outcome === 'uncertain' ? '; read the object and change it back yourself' : ''}`,
    );
  if (record.undo_of !== null)
    throw new NoInverseError(
      `change ${record.id} is itself the undo of change ${record.undo_of}: to redo that, make the change again with its write tool`,
    );
  const lost = record.omitted.filter((f) => f === 'before' || f === 'after' || f === 'request');
  if (lost.length > 0)
    throw new NoInverseError(
      `change ${record.id}: the journal kept its ${lost.join(', ')} only as size and digest (too large), so it cannot be rebuilt`,
    );
}

/**
 * Refuses a change some later change of this client undid. Walks the journal from the change's time
 * on (newest first, a page at a time): an undo is always later than what it undoes.
 */
export async function assertNotUndone(journal: ChangeJournalView, record: ChangeRecord): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await journal.list({
      since: record.time,
      limit: 200,
      ...(cursor !== undefined ? { cursor } : {}),
    });
    const undo = page.changes.find((c) => c.undo_of === record.id && c.outcome !== 'failed');
    if (undo)
      throw new AlreadyUndoneError(
        `change ${record.id} was undone already by change ${undo.id} (${undo.time})`,
      );
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}

/**
 * Refuses when the object as read now (`current`, normalised; null when absent) is not the journal's
 * after-image: the diff, from the after-image to now, is in the message and in `details.diff`.
 */
export function assertUnchangedSince(record: ChangeRecord, current: Plain | null): void {
  // Both normalised again (key order, empty parts) and masked alike: the journal masks secrets, and a
  // node never returns them.
  const after = comparable(record.after);
  const now = alignRedacted(comparable(current), after);
  if (sameContent(after, now)) return;
  const diff: FieldChange[] = diffImages(after, now);
  const err = new ChangedSinceChangeError(
    `the object of change ${record.id} changed since (${describe(diff, after, now)}): the undo would overwrite that, so nothing was sent. Change it back by hand, or undo the later change first`,
  );
  err.details = { change_id: record.id, diff };
  throw err;
}

function comparable(image: unknown): Plain | undefined {
  return maskSecrets(normalise((image ?? null) as Json));
}

function describe(diff: readonly FieldChange[], after?: Plain, now?: Plain): string {
  if (after === undefined && now !== undefined) return 'it exists again';
  if (after !== undefined && now === undefined) return 'it no longer exists';
  const paths = diff.map((d) => d.path);
  const named = paths.slice(0, NAMED_PATHS).join(', ');
  return paths.length > NAMED_PATHS ? `${named} and ${paths.length - NAMED_PATHS} more` : named;
}

/** Refuses an inverse with nothing to send, saying why (the inverse's losses). */
export function assertSomethingToSend(
  record: ChangeRecord,
  inverse: { requests: readonly unknown[]; losses: readonly { reason: string }[] },
): void {
  if (inverse.requests.length > 0) return;
  const why = inverse.losses.map((l) => l.reason).join('; ') || 'it set nothing that can be put back';
  const hint = /template/.test(why) ? ' (the template input)' : '';
  throw new NoInverseError(`change ${record.id} (${record.operation}) has no inverse: ${why}${hint}`);
}
