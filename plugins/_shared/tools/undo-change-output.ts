// The structured answer of `<product>_undo_change` (its MCP outputSchema): the preview and its plan, or
// the undo as applied and journalled.
import { z } from '../../../kernel/sdk/index.ts';
import { changeClass } from './output-shapes.ts';

const fieldChange = z.object({ path: z.string(), before: z.unknown(), after: z.unknown() });
const loss = z.object({ path: z.string(), reason: z.string() });

export const undoChangeOutput = {
  product: z.string(),
  undo_of: z.string().describe('The id of the change undone (or to undo)'),
  host: z.string(),
  change_class: changeClass,
  dry_run: z.boolean().describe('true: a preview, nothing was sent'),
  operation: z.string().describe('undo <the operation undone>'),
  object: z.object({
    type: z.string(),
    name: z.string().optional(),
    uuid: z.string().optional(),
    path: z.string().optional(),
  }),
  requests: z.array(z.unknown()).describe('The inverse requests, in the order they are (or were) sent'),
  current: z.unknown().describe('The object as it is now (null: absent); equal to the change’s after-image'),
  diff: z.array(fieldChange).describe('What the undo changes: from the object now to the before-image'),
  losses: z.array(loss).describe('What the undo cannot bring back, and why'),
  plan_id: z.string().optional().describe('Preview: pass it back with the same change_id to undo'),
  expires_at: z.string().optional(),
  change_id: z.string().optional().describe('Applied: the journal id of the undo itself'),
  after: z.unknown().optional().describe('Applied: the object read back (null: gone)'),
  confirmed_by: z
    .object({ how: z.enum(['direct', 'plan', 'elicitation']), who: z.string() })
    .nullable()
    .optional(),
};
