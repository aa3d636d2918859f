import { structuredReply, z } from '../../../kernel/sdk/index.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { resourcePath } from '../cupi/path-policy.ts';
import { cucTool } from '../shared.ts';

/** CUPI query and sort clauses are short parenthesised expressions; controls never belong in them. */
const clause = z
  .string()
  .min(1)
  .max(512)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\x00-\x1f\x7f]*$/, 'must not contain control characters');

/** Rows per page: CUPI's own ceiling is 2,000; the default keeps one answer small. */
export const MAX_ROWS_PER_PAGE = 2000;

/** `cuc_cupi_list`: one page of a CUPI list, always as an array, with the node's total. */
export default cucTool({
  name: 'cupi_list',
  title: 'List Unity Connection objects (CUPI)',
  description:
    'Lists a CUPI resource (GET /vmrest/<resource>) one page at a time, e.g. resource users, query (alias startswith ab), sort (alias asc). Answers { total, page, rows_per_page, count, items, more }. Allowlist subject: GET /vmrest/<resource>.',
  input: {
    host: hostField,
    resource: z.string().min(1).max(256).describe('Below /vmrest/, e.g. users, handlers/callhandlers'),
    query: clause.optional().describe('e.g. (alias startswith ab), (dtmfaccessid isnull)'),
    sort: clause.optional().describe('CUPI sort, e.g. (alias asc) or (lastname desc)'),
    rowsPerPage: z.number().int().min(1).max(MAX_ROWS_PER_PAGE).default(100),
    pageNumber: z.number().int().min(1).max(1_000_000).default(1),
  },
  output: {
    host: z.string(),
    resource: z.string(),
    total: z.number(),
    page: z.number(),
    rows_per_page: z.number(),
    count: z.number(),
    more: z.boolean(),
    object_name: z.string().optional(),
    items: z.array(z.unknown()),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  // The canonical path, so the allowlist never sees an encoded or dotted spelling (unsafe ones throw).
  access: { allowlist: 'cupi', subject: (i) => `GET ${resourcePath(String(i.resource))}` },
  service: 'cupi',
  summary: (i) => ({
    operation: `GET ${resourcePath(i.resource)}`,
    detail: `${i.query ? `query=${i.query} ` : ''}${i.sort ? `sort=${i.sort} ` : ''}page=${i.pageNumber} rows=${i.rowsPerPage}`,
  }),
  async handler(input, ctx) {
    const page = await ctx.shared.cupi.list(
      ctx.vault,
      input.host,
      {
        resource: input.resource,
        rowsPerPage: input.rowsPerPage,
        pageNumber: input.pageNumber,
        ...(input.query !== undefined ? { query: input.query } : {}),
        ...(input.sort !== undefined ? { sort: input.sort } : {}),
      },
      ctx.signal,
    );
    return structuredReply({
      host: input.host,
      resource: page.resource,
      total: page.total,
      page: page.page,
      rows_per_page: page.rowsPerPage,
      count: page.items.length,
      more: (page.page - 1) * page.rowsPerPage + page.items.length < page.total,
      ...(page.objectName ? { object_name: page.objectName } : {}),
      items: page.items,
    });
  },
});
