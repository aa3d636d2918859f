// The structured answer of `<product>_change_history` (its MCP outputSchema): journal records as the
// kernel stores them (kernel/sdk/changes.ts). The images are the node's objects: open.
import { z } from '../../../kernel/sdk/index.ts';

const change = z.object({
  time: z.string(),
  id: z.string(),
  client: z.string(),
  call_id: z.string(),
  tool: z.string(),
  product: z.string(),
  host: z.string(),
  kind: z.enum(['axl', 'cupi', 'cli', 'service_control']),
  operation: z.string(),
  change_class: z.enum(['change', 'destructive']),
  object: z.object({
    type: z.string(),
    name: z.string().optional(),
    uuid: z.string().optional(),
    path: z.string().optional(),
  }),
  before: z.unknown().describe('The object before the change (null: it did not exist); secrets masked'),
  request: z.unknown().describe('What was sent; secrets masked'),
  after: z.unknown().describe('The object read back after the change (null: gone or unreadable)'),
  outcome: z.enum(['applied', 'failed', 'uncertain']),
  error: z.string().nullable(),
  undo_of: z.string().nullable().describe('The id of the change this one undid'),
  plan_id: z.string().nullable(),
  confirmed_by: z.object({ how: z.enum(['direct', 'plan', 'elicitation']), who: z.string() }).nullable(),
  omitted: z
    .array(z.string())
    .describe('Images too large for the record, kept as their size and SHA-256 only'),
});

export const changeHistoryOutput = {
  product: z.string(),
  changes: z.array(change).describe('Newest first'),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next, older page; null: no more'),
};
