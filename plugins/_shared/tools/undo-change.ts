import type { ChangeRecord, Product, ToolContext } from '../../../kernel/sdk/index.ts';
import { NoInverseError, NotFoundError, structuredReply, toolsFor, z } from '../../../kernel/sdk/index.ts';
import { gateChange } from '../changes/gate.ts';
import type { ChangePreview } from '../changes/gate-types.ts';
import type { UndoInput } from '../changes/undo-adapter.ts';
import { undoAdapter } from '../changes/undo-adapter.ts';
import { assertInvertible, assertNotUndone } from '../changes/undo-checks.ts';
import type { UndoSource } from '../changes/undo-plan.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { undoChangeOutput } from './undo-change-output.ts';

/** The service part of every product's description. */
export const SERVICE_UNDO_WHAT =
  'A service start is undone by a stop and a stop by a start (admin only); a restart or a CLI command has no inverse.';

/** Runs `fn` with the undo source of `record` (its family's client to the record's host, open meanwhile). */
export type UndoOpener<S> = <T>(
  ctx: ToolContext<S>,
  record: ChangeRecord,
  fn: (source: UndoSource<unknown>) => Promise<T>,
  options: UndoOptions,
) => Promise<T>;

/** What a caller may add to an undo that the journal cannot hold. */
export interface UndoOptions {
  /** The template a deleted CUPI user (its alias) or call handler (its ObjectId) is re-created from. */
  template?: string | undefined;
}

export interface UndoFamilies<S> {
  /** The service the tool's rate limit counts (the family most of its undos use). */
  service: 'axl' | 'cupi';
  /** The kinds of change this product's undo can invert, each with how to reach the node. */
  openers: Partial<Record<ChangeRecord['kind'], UndoOpener<S>>>;
  /** One sentence on what it undoes, for the description. */
  what: string;
  /** Offer the `template` input (Unity Connection: the re-create of a deleted user or call handler). */
  templates?: boolean;
}

/**
 * `<product>_undo_change`: undoes one change of the caller's own journal. Without plan_id it only
 * previews (the inverse requests, the object now against the image it puts back, what is lost) and
 * issues a plan; with that plan_id the gate confirms, sends and journals it with undo_of.
 */
export function undoChangeTool<S>(product: Product, families: UndoFamilies<S>) {
  return toolsFor<S>()({
    name: 'undo_change',
    title: `Undo a ${PRODUCT_LABEL[product]} change`,
    description: `Undoes one change your client made on a ${PRODUCT_LABEL[product]} node, from the change journal (change_id from ${product}_change_history): ${families.what} Always a preview first: called without plan_id it sends nothing and answers the inverse requests, the object as it is now, the field diff the undo would make, what it cannot bring back (passwords, PINs, a new uuid...) and a plan_id; call again with the same change_id and that plan_id to undo. Refused (nothing sent) when the object changed since the change (CHANGED_SINCE_CHANGE, with the diff), when the change failed or cannot be inverted (NO_INVERSE: a restart, a CLI command, an undo), or was undone already (ALREADY_UNDONE). The undo is journalled as a change with undo_of.`,
    input: {
      change_id: z.string().min(1).max(64).describe(`The change's id, from ${product}_change_history`),
      dry_run: z.boolean().optional().describe('true: preview only (the default without plan_id)'),
      plan_id: z.string().min(1).max(128).optional().describe('From the preview: undo now'),
      ...(families.templates
        ? {
            template: z
              .string()
              .regex(/^[A-Za-z0-9_.-]{1,64}$/)
              .optional()
              .describe(
                'Undo of a DELETE of a user: the alias of the user template to re-create it from (e.g. voicemailusertemplate); of a call handler: the ObjectId of a call handler template',
              ),
          }
        : {}),
    },
    output: undoChangeOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    // The journal is written only by operator and admin tools; each request the undo sends is checked
    // against the caller's allowlist as well (node.permit), as if sent by the write tool itself.
    access: { minProfile: 'operator' },
    service: families.service,
    summary: (i) => ({
      operation: 'undo_change',
      detail: `change ${String(i.change_id)}${i.plan_id !== undefined && i.dry_run !== true ? ' (confirmed by plan)' : ' (preview)'}`,
    }),
    async handler(input, ctx) {
      const record = await ctx.changes.get(input.change_id);
      // Another product's change is as unknown here as another client's.
      if (record.product !== product) throw new NotFoundError(`no change ${input.change_id} of ${product}`);
      assertInvertible(record);
      const open = families.openers[record.kind];
      if (!open)
        throw new NoInverseError(
          `change ${record.id} is a ${record.kind === 'cli' ? 'CLI command' : record.kind} change (${record.operation}): no inverse is known for it; read the node and change it back yourself`,
        );
      await assertNotUndone(ctx.changes, record);
      const preview = input.plan_id === undefined || input.dry_run === true;
      const template = (input as { template?: string }).template;
      // The template is bound into the plan with the change: a preview shown with one is not confirmed for another.
      const gateInput: UndoInput = {
        change_id: input.change_id,
        ...(template !== undefined ? { template } : {}),
        dry_run: preview,
        ...(input.plan_id !== undefined ? { plan_id: input.plan_id } : {}),
      };
      const options: UndoOptions = { template };
      return open(
        ctx,
        record,
        async (source) => {
          const adapter = undoAdapter(record, source);
          let seen: ChangePreview | undefined;
          let after: unknown = null;
          const watched: typeof adapter = {
            ...adapter,
            preview: async (i) => (seen = await adapter.preview(i)),
            readAfter: async (i, p, applied) => (after = await adapter.readAfter(i, p, applied)),
          };
          const outcome = await gateChange(ctx, watched, gateInput, () => adapter.send(), {
            undoOf: record.id,
            host: record.host,
          });
          if (outcome.kind === 'input') return outcome.reply;
          if (!seen) throw new NoInverseError(`change ${record.id}: the undo was not previewed`);
          return structuredReply({
            product,
            undo_of: record.id,
            host: record.host,
            change_class: seen.change_class,
            dry_run: outcome.kind === 'dry_run',
            operation: seen.operation,
            object: seen.object,
            requests: seen.request as unknown[],
            current: seen.before,
            diff: seen.diff,
            losses: seen.losses ?? [],
            ...(outcome.kind === 'dry_run'
              ? { plan_id: outcome.answer.plan_id, expires_at: outcome.answer.expires_at }
              : {
                  ...(outcome.change_id !== undefined ? { change_id: outcome.change_id } : {}),
                  after,
                  confirmed_by: outcome.confirmed_by ?? null,
                }),
          });
        },
        options,
      );
    },
  });
}
