// The one path every write tool's change takes (issue 23): preview on `dry_run`, the profile's `writes`
// setting, confirmation by a previewed plan or by the person in the client, and the change journal.
// The tools keep only what differs between them: how to read the object (their ChangeAdapter) and how
// to send the change (`apply`).
import {
  ChangedSincePreviewError,
  ConfirmationDeclinedError,
  ConfirmationRequiredError,
  inputRequired,
  needsConfirmation,
  previewOnly,
  ProfilePermissionError,
  type ChangeConfirmation,
  type ToolContext,
  type ToolReply,
} from '../../../kernel/sdk/index.ts';
import { sendJournalled } from './journalled-send.ts';
import { isSecretField, MASKED, maskSecrets } from './values.ts';
import type { ChangeAdapter, ChangePreview, GateInput } from './gate-types.ts';

/** What the gate needs of a tool's context (unit tests give exactly this). */
export type GateContext = Pick<
  ToolContext,
  'caller' | 'kernel' | 'input' | 'changes' | 'plans' | 'confirmed' | 'log'
>;

/** A preview's answer, merged into the tool's structured reply. */
export interface DryRunAnswer {
  dry_run: true;
  change_class: ChangePreview['change_class'];
  preview: ChangePreview;
  plan_id: string;
  expires_at: string;
  /** Whether applying it needs this plan_id (or the person's consent) under the caller's `writes`. */
  needs_confirmation: boolean;
}

export type GateOutcome<R> =
  /** A read (nothing journalled), or an applied change with its journal id and who let it go ahead. */
  | { kind: 'applied'; result: R; change_id?: string; confirmed_by?: ChangeConfirmation }
  | { kind: 'dry_run'; answer: DryRunAnswer }
  /** The person must confirm in their client first: the tool returns this reply as it is. */
  | { kind: 'input'; reply: ToolReply };

/** The elicitation's answer key, and the prefix of the gate's state between the two rounds. */
const KEY = 'confirm_change';
const STATE = 'change-plan:';
/** Diff lines shown to the person; the rest is counted. */
const SHOWN_CHANGES = 12;
const SHOWN_VALUE = 120;
/**
 * Marks the plan behind an elicitation: the client can read the round's state, so without this its
 * plan_id would confirm the change on a plain call, without the person.
 */
const ELICITED = { '(confirmed by)': 'elicitation' };

/**
 * Runs one write through preview / confirmation / journal. `undoOf`: the journal id this change undoes
 * (the undo tool). `host`: the node, for the journal.
 */
export async function gateChange<I extends GateInput, R>(
  ctx: GateContext,
  adapter: ChangeAdapter<I>,
  input: I,
  apply: () => Promise<R>,
  o: { undoOf?: string; host: string },
): Promise<GateOutcome<R>> {
  const cls = adapter.classify(input);
  if (cls === 'read') return { kind: 'applied', result: await apply() };
  const args = input as unknown as Record<string, unknown>;
  const writes = ctx.kernel.permissions(ctx.caller).writes;
  const must = needsConfirmation(cls, writes);

  if (input.dry_run === true) {
    const preview = await adapter.preview(input);
    const plan = await ctx.plans.issue({ args, before: preview.before });
    return {
      kind: 'dry_run',
      answer: {
        dry_run: true,
        change_class: preview.change_class,
        preview: shownPreview(preview),
        ...plan,
        needs_confirmation: must,
      },
    };
  }
  if (previewOnly(cls, writes))
    throw new ProfilePermissionError(
      `this profile may only preview changes (writes: preview-only): call with dry_run: true to see what this ${what(cls)} would do`,
    );

  let preview: ChangePreview;
  let confirmation: ChangeConfirmation;
  let planId: string | undefined;
  const state = ctx.input.state;
  if (state?.startsWith(STATE)) {
    // Second round: the person's answer to the summary the first round showed.
    planId = state.slice(STATE.length);
    if (!accepted(ctx.input.responses[KEY]))
      throw new ConfirmationDeclinedError(
        `the person declined the ${what(cls)} in their client: nothing was sent`,
      );
    preview = await stillHolds(ctx, adapter, input, planId, ELICITED);
    confirmation = { how: 'elicitation', who: `a person in ${ctx.caller.name}'s client` };
  } else if (input.plan_id !== undefined) {
    planId = input.plan_id;
    preview = await stillHolds(ctx, adapter, input, planId, {});
    confirmation = { how: 'plan', who: ctx.caller.name };
  } else if (must) {
    if (!ctx.input.accepts.elicitation)
      throw new ConfirmationRequiredError(
        `this ${what(cls)} must be confirmed: call again with dry_run: true to preview it, then repeat the same call with the plan_id it returns`,
      );
    // First round: preview, keep the plan for the answer, and ask the person.
    preview = await adapter.preview(input);
    const plan = await ctx.plans.issue({ args: { ...args, ...ELICITED }, before: preview.before });
    return {
      kind: 'input',
      reply: inputRequired({ [KEY]: ask(preview, o.host) }, `${STATE}${plan.plan_id}`),
    };
  } else {
    // A direct change: previewed silently, for the journal's before-image.
    preview = await adapter.preview(input);
    confirmation = { how: 'direct', who: ctx.caller.name };
  }

  ctx.confirmed({ ...confirmation, ...(planId !== undefined ? { plan_id: planId } : {}) });
  const entry = {
    host: o.host,
    kind: adapter.kind,
    operation: preview.operation,
    change_class: preview.change_class,
    object: preview.object,
    before: preview.before,
    request: preview.request,
    confirmed_by: confirmation,
    ...(planId !== undefined ? { plan_id: planId } : {}),
    ...(o.undoOf !== undefined ? { undo_of: o.undoOf } : {}),
  };
  const result = await sendJournalled(ctx, entry, apply);
  let after: unknown = null;
  try {
    after = await adapter.readAfter(input, preview, result);
  } catch (err) {
    // The change is done; an unreadable after-image must not turn it into an error.
    ctx.log.warn({ err, operation: preview.operation }, 'the changed object could not be read back');
  }
  const rec = await ctx.changes.record({ ...entry, after, outcome: 'applied' });
  return { kind: 'applied', result, change_id: rec.id, confirmed_by: confirmation };
}

/** Previews again and uses the plan; a changed object is refused with what would change now. */
async function stillHolds<I extends GateInput>(
  ctx: GateContext,
  adapter: ChangeAdapter<I>,
  input: I,
  planId: string,
  marker: Record<string, string>,
): Promise<ChangePreview> {
  const preview = await adapter.preview(input);
  try {
    await ctx.plans.consume(planId, {
      args: { ...(input as unknown as Record<string, unknown>), ...marker },
      before: preview.before,
    });
  } catch (err) {
    if (err instanceof ChangedSincePreviewError)
      err.details = { ...err.details, operation: preview.operation, diff_now: preview.diff };
    throw err;
  }
  return preview;
}

function what(cls: 'change' | 'destructive'): string {
  return cls === 'destructive' ? 'destructive change' : 'change';
}

function accepted(answer: unknown): boolean {
  if (!answer || typeof answer !== 'object') return false;
  const a = answer as { action?: unknown; content?: unknown };
  if (a.action !== 'accept' || !a.content || typeof a.content !== 'object') return false;
  return (a.content as { confirm?: unknown }).confirm === true;
}

/** A form-mode elicitation: the change's summary and diff, and one boolean to confirm it. */
function ask(p: ChangePreview, host: string) {
  const name = p.object.name ?? p.object.uuid ?? p.object.path ?? '';
  const lines = p.diff
    .slice(0, SHOWN_CHANGES)
    .map((c) => `- ${c.path}: ${shown(c.path, c.before)} -> ${shown(c.path, c.after)}`);
  if (p.diff.length > SHOWN_CHANGES) lines.push(`- and ${p.diff.length - SHOWN_CHANGES} more fields`);
  const message = [
    `Confirm this ${p.change_class} change on ${host.slice(0, 120)}: ${p.operation.slice(0, 200)}` +
      (name ? ` (${p.object.type} ${name.slice(0, 120)})` : ''),
    ...(lines.length > 0 ? lines : [p.unreadable ? `No diff: ${p.unreadable}` : 'No field changes.']),
  ].join('\n');
  return {
    method: 'elicitation/create' as const,
    params: {
      mode: 'form',
      message,
      requestedSchema: {
        type: 'object',
        properties: {
          confirm: { type: 'boolean', title: 'Apply this change', default: false },
        },
        required: ['confirm'],
      },
    },
  };
}

/**
 * The preview as the caller sees it: a password or PIN in the request (or read back) is the caller's
 * own, but it must not come back in a result, where logs and transcripts keep it.
 */
function shownPreview(p: ChangePreview): ChangePreview {
  return {
    ...p,
    before: maskSecrets(p.before),
    request: maskSecrets(p.request),
    diff: p.diff.map((c) =>
      secretPath(c.path)
        ? { ...c, before: c.before === null ? null : MASKED, after: c.after === null ? null : MASKED }
        : {
            ...c,
            before: maskSecrets(c.before),
            after: maskSecrets(c.after),
          },
    ),
  };
}

function secretPath(path: string): boolean {
  return isSecretField(
    path
      .split(/[.[\]]/)
      .filter(Boolean)
      .at(-1) ?? '',
  );
}

function shown(path: string, v: unknown): string {
  if (secretPath(path)) return MASKED;
  const text = v === null || v === undefined ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > SHOWN_VALUE ? `${text.slice(0, SHOWN_VALUE)}...` : text;
}
