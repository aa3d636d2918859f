import { BadRequestError, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { callFingerprint, decodeCursor, encodeCursor } from '../../_shared/axl/answer-cursor.ts';
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
    'Lists a CUPI resource (GET /vmrest/<resource>) one page at a time, e.g. resource users, query (alias startswith ab), sort (alias asc). Answers { total, page, rows_per_page, count, items, more, cursor }. Read on with cursor rather than pageNumber: the next page is then checked against the row the last one ended with, and complete false with incomplete.code ROWS_SHIFTED says objects were added or removed before it (read again from page 1). Allowlist subject: GET /vmrest/<resource>.',
  input: {
    host: hostField,
    resource: z.string().min(1).max(256).describe('Below /vmrest/, e.g. users, handlers/callhandlers'),
    query: clause.optional().describe('e.g. (alias startswith ab), (dtmfaccessid isnull)'),
    sort: clause.optional().describe('CUPI sort, e.g. (alias asc) or (lastname desc)'),
    rowsPerPage: z.number().int().min(1).max(MAX_ROWS_PER_PAGE).default(100),
    pageNumber: z.number().int().min(1).max(1_000_000).default(1),
    cursor: z
      .string()
      .max(4096)
      .optional()
      .describe('From an earlier answer (same resource, query, sort, rowsPerPage): the next page'),
  },
  output: {
    host: z.string(),
    resource: z.string(),
    total: z.number(),
    page: z.number(),
    rows_per_page: z.number(),
    count: z.number(),
    more: z.boolean(),
    /** False when a later page exists or the objects moved between pages (then `incomplete` says so). */
    complete: z.boolean(),
    incomplete: z.object({ code: z.string(), reason: z.string() }).optional(),
    cursor: z.string().optional(),
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
    const fp = callFingerprint(ctx.vault.client, input.host, 'cupi_list', [
      resourcePath(input.resource),
      input.query ?? '',
      input.sort ?? '',
      input.rowsPerPage,
    ]);
    const given = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
    if (given && (given.k !== 'page' || given.c !== fp))
      throw new BadRequestError(
        'this cursor belongs to another list (tool, resource, query, sort, rowsPerPage or host differ)',
      );
    const pageNumber = given?.k === 'page' ? given.p : input.pageNumber;
    const read = (rowsPerPage: number, page: number) =>
      ctx.shared.cupi.list(
        ctx.vault,
        input.host,
        {
          resource: input.resource,
          rowsPerPage,
          pageNumber: page,
          ...(input.query !== undefined ? { query: input.query } : {}),
          ...(input.sort !== undefined ? { sort: input.sort } : {}),
        },
        ctx.signal,
      );
    const page = await read(input.rowsPerPage, pageNumber);
    // Page numbers are offsets: an object removed (or added) before the page shifts every later one by
    // a place. After reading the page, the object just before it must still be the one the previous
    // page ended with; read after the page, so a shift during the read is seen too.
    let incomplete: { code: string; reason: string } | undefined;
    if (given?.k === 'page') {
      const before = await read(1, (pageNumber - 1) * input.rowsPerPage);
      if (objectId(before.items[0]) !== given.l)
        incomplete = {
          code: 'ROWS_SHIFTED',
          reason:
            'objects were added or removed before this page since the previous one, so pages may skip or repeat objects; read again from page 1 without cursor',
        };
    }
    const more = (page.page - 1) * page.rowsPerPage + page.items.length < page.total;
    const last = objectId(page.items[page.items.length - 1]);
    const cursor =
      more && !incomplete && last !== undefined
        ? encodeCursor({ k: 'page', c: fp, p: pageNumber + 1, l: last })
        : undefined;
    return structuredReply({
      host: input.host,
      resource: page.resource,
      total: page.total,
      page: page.page,
      rows_per_page: page.rowsPerPage,
      count: page.items.length,
      more,
      complete: !more && !incomplete,
      ...(incomplete ? { incomplete } : {}),
      ...(cursor ? { cursor } : {}),
      ...(page.objectName ? { object_name: page.objectName } : {}),
      items: page.items,
    });
  },
});

/** CUPI objects carry ObjectId (a few lists name it otherwise: no cursor then, page numbers only). */
function objectId(item: unknown): string | undefined {
  const id =
    item !== null && typeof item === 'object' ? (item as { ObjectId?: unknown }).ObjectId : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
