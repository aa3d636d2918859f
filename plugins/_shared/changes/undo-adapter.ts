// The undo as the change gate sees it: a change of its own, previewed from the journal record and the
// node as it is now, confirmed, sent and journalled like any other (with undo_of).
import type { ChangeRecord } from '../../../kernel/sdk/index.ts';
import { diffImages } from './field-diff.ts';
import type { ChangeAdapter, ChangePreview, GateInput } from './gate-types.ts';
import type { UndoPlan, UndoSource } from './undo-plan.ts';

export interface UndoInput extends GateInput {
  change_id: string;
  /** The template a deleted CUPI user or call handler is re-created from (cuc_undo_change). */
  template?: string;
}

export interface UndoAdapter extends ChangeAdapter<UndoInput> {
  /** Sends the plan the last preview built (the gate previews before it applies). */
  send(): Promise<unknown>;
}

export function undoAdapter<Req>(record: ChangeRecord, source: UndoSource<Req>): UndoAdapter {
  let last: UndoPlan<Req> | undefined;
  return {
    kind: record.kind,
    // Every undo is confirmed, whatever the profile's `writes`: it writes back an image from the
    // journal, so the person sees that image against the object as it is now before it goes.
    classify: () => 'destructive',
    async preview(): Promise<ChangePreview> {
      last = await source.plan();
      return {
        change_class: 'destructive',
        kind: last.kind,
        operation: last.operation,
        object: last.object,
        before: last.current,
        request: last.requests,
        diff: diffImages(last.current ?? undefined, last.restores ?? undefined, { secretsUnreadable: true }),
        ...(last.losses.length > 0 ? { losses: last.losses } : {}),
      };
    },
    async readAfter(_input, _preview, applied) {
      last ??= await source.plan();
      return source.readBack(last, applied);
    },
    async send() {
      last ??= await source.plan();
      return source.send(last);
    },
  };
}
