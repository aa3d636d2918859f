import { BadRequestError, structuredReply, toolsFor, z, type Product } from '../../../kernel/sdk/index.ts';
import type { AxlClient } from '../axl/axl-client.ts';
import {
  callFingerprint,
  decodeCursor,
  encodeCursor,
  type AnswerCursor,
  type HeldAnswers,
} from '../axl/answer-cursor.ts';
import { DEFAULT_BUDGET_BYTES, listAll, listPage, sqlQuery, type Cursor, type Page } from '../axl/paging.ts';
import type { Json } from '../axl/schema.ts';
import { axlChangeAdapter } from '../changes/axl-adapter.ts';
import { CHANGE_CLASS_NOTE, classifyAxl } from '../changes/classify.ts';
import { gateChange } from '../changes/gate.ts';
import { assertCarriable } from '../node/wire-text.ts';
import { axlCallSummary } from './axl-summary.ts';
import { hostField } from './credential-input.ts';
import { GATE_NOTE, gateInput, gateOutput, gateReply } from './gate-fields.ts';
import type { AxlState } from './plugin-state.ts';
import { A_PRODUCT, PRODUCT_LABEL } from './product-labels.ts';
import { jsonValue } from './json-value.ts';
import { axlCallOutput } from './output-shapes.ts';

/** `<product>_axl_call`: any AXL operation the caller's allowlist permits, JSON in and out, paged. */
export function axlCallTool(product: Product) {
  return toolsFor<AxlState>()({
    name: 'axl_call',
    title: `Call ${A_PRODUCT[product]} AXL operation`,
    description: `Runs one AXL operation (get, list, add, update, remove, do, apply, executeSQLQuery...) on the ${PRODUCT_LABEL[product]} node, as your AXL allowlist permits. args is the request body as JSON, e.g. {"name":"SEP001122334455"} for getPhone. executeSQLQuery: {"sql":"select ..."}. An answer over max_bytes carries cursor: repeat the call with it. Pages follow rows added or removed between calls; complete false with incomplete.code ROWS_SHIFTED means the rows moved too far to be sure none was skipped: read again without cursor. ${CHANGE_CLASS_NOTE} ${product}_list_axl_operations shows each operation's class. ${GATE_NOTE}`,
    input: {
      host: hostField,
      operation: z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9]{0,127}$/)
        .describe('e.g. getPhone, listPhone, executeSQLQuery'),
      // prefault, not default: jsonValue's depth guard is a preprocess step, after which zod would leave
      // a plain default out of the input JSON Schema.
      args: z.record(z.string(), jsonValue).prefault({}).describe('The request body, as JSON'),
      skip: z.number().int().min(0).optional().describe('list*: first row to return'),
      first: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .optional()
        .describe('list*: return one page of this many rows'),
      cursor: z.string().max(4096).optional().describe('From an earlier answer, to continue it'),
      max_bytes: z
        .number()
        .int()
        .min(512)
        .max(4 * 1024 * 1024)
        .default(DEFAULT_BUDGET_BYTES)
        .describe('Largest answer in JSON bytes before a cursor'),
      ...gateInput,
    },
    output: { ...axlCallOutput, ...gateOutput },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    access: { allowlist: 'axl', subject: (i) => String(i.operation) },
    service: 'axl',
    summary: (i) => axlCallSummary(i.operation, i.args),
    async handler(input, ctx) {
      // Before anything reaches the node (not even the version negotiation).
      assertCarriable(input.args, 'args', 'xml');
      const fp = callFingerprint(ctx.caller.name, input.host, input.operation, input.args);
      const change_class = classifyAxl(input.operation, input.args).class;
      const cursor = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
      if (cursor?.k === 'text')
        return structuredReply({
          change_class,
          ...heldSlice(ctx.shared.held, ctx.caller.name, cursor, input),
        });
      if (cursor?.k === 'page') throw new BadRequestError('this cursor belongs to another tool');
      if (cursor && cursor.c !== fp)
        throw new BadRequestError(
          'this cursor belongs to another call (operation, arguments or host differ)',
        );
      const base = { host: input.host, operation: input.operation, change_class };
      return ctx.shared.axl.with(
        ctx.vault,
        input.host,
        async ({ client }) => {
          if (change_class !== 'read')
            ctx.log.info({ host: input.host, operation: input.operation, change_class }, 'AXL write');
          const rows = await rowsOf(client, input, cursor);
          if (rows) {
            const next = rows.page.cursor;
            return structuredReply({
              ...base,
              axl_version: client.version,
              count: rows.page.items.length,
              rows: rows.page.items,
              complete: next === undefined && rows.page.incomplete === undefined,
              ...(rows.page.incomplete ? { incomplete: rows.page.incomplete } : {}),
              ...(next
                ? {
                    cursor: encodeCursor({
                      k: 'rows',
                      c: fp,
                      skip: next.skip,
                      ...(next.tail ? { t: next.tail } : {}),
                      ...(next.after !== undefined ? { a: next.after } : {}),
                    }),
                  }
                : {}),
            });
          }
          if (change_class !== 'read') {
            const xsd = await ctx.shared.axl.cache.xsdModel(client.version);
            const out = await gateChange(
              ctx,
              axlChangeAdapter(client, xsd),
              input,
              () => client.call(input.operation, input.args),
              { host: input.host },
            );
            return gateReply(out, base, (result) =>
              structuredReply({ ...base, axl_version: client.version, complete: true, result }),
            );
          }
          const result = await client.call(input.operation, input.args);
          const text = JSON.stringify(result);
          if (Buffer.byteLength(text) <= input.max_bytes)
            return structuredReply({ ...base, axl_version: client.version, complete: true, result });
          const id = ctx.shared.held.hold(ctx.caller.name, text);
          return structuredReply({
            ...base,
            axl_version: client.version,
            ...heldSlice(ctx.shared.held, ctx.caller.name, { k: 'text', id, offset: 0 }, input),
          });
        },
        ctx.signal,
      );
    },
  });
}

interface CallInput {
  operation: string;
  args: Record<string, Json>;
  skip?: number | undefined;
  first?: number | undefined;
  max_bytes: number;
}

/**
 * list* and executeSQLQuery read rows; anything else returns undefined and is called as is. A cursor
 * carries where the previous page ended (last key, or offset with the last rows' fingerprints).
 */
async function rowsOf(
  client: AxlClient,
  input: CallInput,
  given: Extract<AnswerCursor, { k: 'rows' }> | undefined,
): Promise<{ page: Page } | undefined> {
  const cursor: Cursor = given
    ? {
        skip: given.skip,
        ...(given.t ? { tail: given.t } : {}),
        ...(given.a !== undefined ? { after: given.a } : {}),
      }
    : { skip: input.skip ?? 0 };
  if (input.operation === 'executeSQLQuery') {
    const sql = input.args.sql;
    if (typeof sql !== 'string' || sql.trim() === '')
      throw new BadRequestError('executeSQLQuery needs args.sql, a SELECT statement');
    return {
      page: await sqlQuery(client, sql, {
        budgetBytes: input.max_bytes,
        ...(given || cursor.skip > 0 ? { cursor } : {}),
      }),
    };
  }
  if (!input.operation.startsWith('list')) return undefined;
  const criteria = objectArg(input.args.searchCriteria, 'searchCriteria');
  const tags = objectArg(input.args.returnedTags, 'returnedTags');
  if (input.first !== undefined)
    return { page: await listPage(client, input.operation, criteria, tags, cursor, input.first) };
  return {
    page: await listAll(client, input.operation, criteria, tags, { budgetBytes: input.max_bytes, cursor }),
  };
}

function objectArg(v: Json | undefined, name: string): Record<string, Json> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new BadRequestError(`args.${name} must be an object`);
  return v;
}

/** A slice of a held answer as `partial_json`, with the cursor to the rest when there is more. */
function heldSlice(
  held: HeldAnswers,
  owner: string,
  c: Extract<AnswerCursor, { k: 'text' }>,
  input: { max_bytes: number },
): Record<string, unknown> {
  // Characters of the JSON text: the parts joined in order are the whole answer.
  const { text, total } = held.slice(owner, c.id, c.offset, input.max_bytes);
  const end = c.offset + text.length;
  return {
    complete: end >= total,
    partial_json: text,
    offset: c.offset,
    total_chars: total,
    ...(end < total ? { cursor: encodeCursor({ k: 'text', id: c.id, offset: end }) } : {}),
  };
}
