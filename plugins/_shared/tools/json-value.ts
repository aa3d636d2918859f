import { z } from '../../../kernel/sdk/index.ts';
import type { Json } from '../axl/schema.ts';

/** Deepest nesting of arrays and objects a JSON argument may have; AXL and CUPI bodies need a handful. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests deeper than `max`, found without recursion (so a hostile depth cannot overflow). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

const jsonTree: z.ZodType<Json> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonTree), z.record(z.string(), jsonTree)]),
);

/**
 * Any JSON value, for tool arguments that carry a request body (AXL, CUPI). The depth is checked first,
 * iteratively: the recursive schema would otherwise overflow the stack on a few thousand nested arrays
 * (an INTERNAL_ERROR instead of BAD_REQUEST). A preprocess step, so the JSON Schema stays the tree's.
 */
export const jsonValue: z.ZodType<Json> = z.preprocess((value, ctx) => {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH))
    ctx.addIssue({ code: 'custom', message: `nested deeper than ${MAX_JSON_DEPTH} levels` });
  return value;
}, jsonTree) as unknown as z.ZodType<Json>;
