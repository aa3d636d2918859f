// What the four write tool families add for the change gate (plugins/_shared/changes/gate.ts): the two
// inputs, the answer's fields, the sentence of their descriptions, and the reply built from the outcome.
import { structuredReply, z, type ToolReply } from '../../../kernel/sdk/index.ts';
import type { GateOutcome } from '../changes/gate.ts';
import { changeClass } from './output-shapes.ts';

export const GATE_NOTE =
  'With dry_run: true nothing that changes the node is sent: the answer holds the before-image, the request, a field-by-field diff and a single-use plan_id; a destructive change (or any change where your profile says writes: confirm) goes ahead only with that plan_id, or after the person confirms it in the client.';

export const gateInput = {
  dry_run: z
    .boolean()
    .optional()
    .describe('Preview only: read the objects, send nothing that changes the node, return a plan_id'),
  plan_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe("The dry_run answer's plan_id, to confirm exactly that change"),
};

const fieldChange = z.object({ path: z.string(), before: z.unknown(), after: z.unknown() });

/** The dry-run answer's fields and the applied change's journal id and confirmation; all optional. */
export const gateOutput = {
  dry_run: z.literal(true).optional(),
  preview: z
    .object({
      change_class: changeClass,
      kind: z.enum(['axl', 'cupi', 'cli', 'service_control']),
      operation: z.string(),
      object: z.object({
        type: z.string(),
        name: z.string().optional(),
        uuid: z.string().optional(),
        path: z.string().optional(),
      }),
      before: z.unknown(),
      request: z.unknown(),
      diff: z.array(fieldChange),
      unreadable: z.string().optional(),
      losses: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
    })
    .optional(),
  plan_id: z.string().optional(),
  expires_at: z.string().optional(),
  needs_confirmation: z.boolean().optional(),
  change_id: z.string().optional(),
  confirmed_by: z.object({ how: z.enum(['direct', 'plan', 'elicitation']), who: z.string() }).optional(),
};

/**
 * The tool's reply for a gate outcome: the elicitation round as it is, the dry-run answer after
 * `base` (host, operation...), or `applied`'s reply with the journal id and who confirmed it.
 */
export function gateReply<R>(
  out: GateOutcome<R>,
  base: Record<string, unknown>,
  applied: (result: R) => ToolReply | Promise<ToolReply>,
): Promise<ToolReply> | ToolReply {
  if (out.kind === 'input') return out.reply;
  if (out.kind === 'dry_run') return structuredReply({ ...base, ...out.answer });
  const extra = {
    ...(out.change_id !== undefined ? { change_id: out.change_id } : {}),
    ...(out.confirmed_by !== undefined ? { confirmed_by: out.confirmed_by } : {}),
  };
  const withExtra = (r: ToolReply): ToolReply =>
    r.structured && Object.keys(extra).length > 0 ? { ...r, structured: { ...r.structured, ...extra } } : r;
  const r = applied(out.result);
  return r instanceof Promise ? r.then(withExtra) : withExtra(r);
}
