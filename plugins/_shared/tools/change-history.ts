import { defineTool, structuredReply, z, type Product } from '../../../kernel/sdk/index.ts';
import { changeHistoryOutput } from './change-history-output.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

const isoTime = z.string().datetime({ offset: true });

/**
 * `<product>_change_history`: the changes this client's tools made on the product's nodes, from the
 * kernel's change journal. Only the caller's own: the journal is per client like the vault and the
 * reports, so no profile (admin included) reads another client's before-images through MCP; the
 * operator reads every client's in changes/ on the server and in backups.
 */
export function changeHistoryTool(product: Product) {
  return defineTool({
    name: 'change_history',
    title: `${PRODUCT_LABEL[product]} change history`,
    description: `The changes your client's tools made on ${PRODUCT_LABEL[product]} nodes, newest first, from the server's change journal: when, which tool call (call_id, as in the audit log), the operation, the object, its before-image, the request and the after-image read back (passwords and PINs masked), the outcome, and who confirmed it. Filters: host, object (part of its name, uuid or path), since and until (ISO 8601). Pages of limit records; pass next_cursor as cursor for older ones. Reads the journal only, never a node. Only your own client's changes are listed; records past the server's retention are gone.`,
    input: {
      host: z
        .string()
        .min(1)
        .max(270)
        .optional()
        .describe('Only changes on this node, as the change named it'),
      object: z
        .string()
        .min(1)
        .max(256)
        .optional()
        .describe("Only changes whose object's name, uuid or path contains this text"),
      since: isoTime.optional().describe('Only changes at or after this time (ISO 8601)'),
      until: isoTime.optional().describe('Only changes at or before this time (ISO 8601)'),
      limit: z.number().int().min(1).max(200).optional().describe('Most changes in the page (default 50)'),
      cursor: z.string().max(64).optional().describe('The next_cursor of the previous page'),
    },
    output: changeHistoryOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // A client whose profile cannot write has nothing in its journal.
    access: { minProfile: 'operator' },
    service: 'default',
    async handler(input, ctx) {
      const page = await ctx.changes.list({ ...input, product });
      return structuredReply({ product, ...page });
    },
  });
}
