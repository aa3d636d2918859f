// Arguments for any tool, derived from its published input JSON Schema (the subset zod emits: object,
// string, integer, number, boolean, null, array, enum, anyOf, $ref into $defs, min/max bounds, pattern).
// `validish` aims inside the schema, steered by realistic values per property name (hints) so calls
// reach the handlers; `hostileArguments` then breaks one to three properties of such a value.
import fc from 'fast-check';
import { hostileString, PROTO_KEYS, withOwnKey, wrongValue } from './hostile.ts';

export type JsonSchema = { [key: string]: unknown };
/** Realistic values by property name (at any depth), mixed with the schema's own. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

interface Ctx {
  root: JsonSchema;
  hints: Hints;
  depth: number;
}

const SAFE = 1e9;
const clamp = (n: unknown, dflt: number): number =>
  typeof n === 'number' && Number.isFinite(n) ? Math.max(-SAFE, Math.min(SAFE, n)) : dflt;

function resolveRef(ref: string, root: JsonSchema): JsonSchema {
  const m = /^#\/\$defs\/(.+)$/.exec(ref);
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const target = m ? defs[m[1] as string] : undefined;
  if (!target) throw new Error(`unresolvable $ref ${ref}`);
  return target;
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = clamp(s.minLength, 0);
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  if (typeof s.pattern === 'string') {
    const re = new RegExp(s.pattern);
    return fc.stringMatching(re).filter((x) => x.length >= min && x.length <= max);
  }
  const cap = Math.min(max, 48);
  const plain = fc.string({ minLength: min, maxLength: Math.max(min, cap) });
  if (!Number.isFinite(max) || max > 4096) return plain;
  // The longest string the schema allows, now and then.
  return fc.oneof({ weight: 5, arbitrary: plain }, { weight: 1, arbitrary: fc.constant('a'.repeat(max)) });
}

function objectArb(s: JsonSchema, ctx: Ctx): fc.Arbitrary<Record<string, unknown>> {
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const keys = Object.keys(props);
  const required = (s.required ?? []) as string[];
  if (keys.length > 0) {
    // Optional properties are left out three times in four: each one present is one more way to fail
    // validation, and a valid-ish call should mostly get through to the handler.
    const entries = keys.map((k) => {
      const value = validish(props[k] as JsonSchema, ctx, k).map((v) => [k, v] as const);
      return required.includes(k)
        ? value
        : fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });
    });
    return fc.tuple(...entries).map((pairs) => {
      const out: Record<string, unknown> = {};
      for (const pair of pairs) if (pair) out[pair[0]] = pair[1];
      return out;
    });
  }
  const extra = s.additionalProperties;
  if (extra && typeof extra === 'object') {
    const names = (s.propertyNames ?? { type: 'string', maxLength: 16 }) as JsonSchema;
    return fc.dictionary(
      stringArb({ ...names, maxLength: Math.min(Number(names.maxLength ?? 16), 16) }),
      fromSchema(extra as JsonSchema, { ...ctx, depth: ctx.depth + 1 }),
      { maxKeys: 3 },
    );
  }
  return fc.constant({});
}

function fromSchema(s: JsonSchema, ctx: Ctx): fc.Arbitrary<unknown> {
  if (typeof s.$ref === 'string') {
    if (ctx.depth > 3) return fc.constantFrom<unknown>('x', 1, true, null);
    return fromSchema(resolveRef(s.$ref, ctx.root), { ...ctx, depth: ctx.depth + 1 });
  }
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.anyOf)) return fc.oneof(...(s.anyOf as JsonSchema[]).map((x) => fromSchema(x, ctx)));
  switch (s.type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return fc.integer({ min: clamp(s.minimum, -1_000_000), max: clamp(s.maximum, 1_000_000) });
    case 'number':
      return fc.double({
        min: clamp(s.minimum, -1e6),
        max: clamp(s.maximum, 1e6),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema((s.items ?? {}) as JsonSchema, { ...ctx, depth: ctx.depth + 1 }), {
        minLength: clamp(s.minItems, 0),
        maxLength: Math.min(clamp(s.maxItems, 4), 4),
      });
    case 'object':
      return objectArb(s, ctx);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value inside `schema` (for property `key`, its hint when there is one). */
export function validish(schema: JsonSchema, ctx: Ctx, key?: string): fc.Arbitrary<unknown> {
  const base = fromSchema(schema, ctx);
  const hint = key !== undefined && Object.hasOwn(ctx.hints, key) ? ctx.hints[key] : undefined;
  return hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: base }) : base;
}

/** Just outside a property's schema: one past its bounds, a near-miss of its enum, a fraction. */
function boundary(s: JsonSchema): fc.Arbitrary<unknown> {
  const out: unknown[] = [];
  if (typeof s.maxLength === 'number' && s.maxLength <= 1_000_000) out.push('a'.repeat(s.maxLength + 1));
  if (typeof s.minLength === 'number' && s.minLength > 0) out.push('');
  if (typeof s.minimum === 'number') out.push(s.minimum - 1);
  if (typeof s.maximum === 'number' && s.maximum < Number.MAX_SAFE_INTEGER) out.push(s.maximum + 1);
  if (s.type === 'integer') out.push(1.5);
  if (Array.isArray(s.enum))
    for (const e of s.enum as unknown[])
      if (typeof e === 'string') out.push(e.toLowerCase() + ' ', e.toUpperCase());
  return out.length > 0 ? fc.constantFrom(...out) : fc.constant(null);
}

type Mutation = { op: 'set'; key: string; value: unknown } | { op: 'delete'; key: string };

/** Valid-ish arguments with one to three properties broken (wrong type, hostile text, bounds, removed, extra). */
export function hostileArguments(schema: JsonSchema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const ctx: Ctx = { root: schema, hints, depth: 0 };
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const keys = Object.keys(props);
  const known: fc.Arbitrary<Mutation>[] = keys.map((key) =>
    fc.oneof(
      fc.record({ op: fc.constant('set' as const), key: fc.constant(key), value: hostileString() }),
      fc.record({ op: fc.constant('set' as const), key: fc.constant(key), value: wrongValue() }),
      fc.record({
        op: fc.constant('set' as const),
        key: fc.constant(key),
        value: boundary(props[key] as JsonSchema),
      }),
      fc.record({ op: fc.constant('delete' as const), key: fc.constant(key) }),
    ),
  );
  const extra: fc.Arbitrary<Mutation> = fc.record({
    op: fc.constant('set' as const),
    key: fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 12 })),
    value: fc.oneof(wrongValue(), hostileString()),
  });
  const mutation = known.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.oneof(...known) }, extra) : extra;
  return fc
    .tuple(objectArb(schema, ctx), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([args, mutations]) => {
      const out: Record<string, unknown> = { ...args };
      for (const m of mutations) {
        if (m.op === 'delete') delete out[m.key];
        else withOwnKey(out, m.key, m.value);
      }
      return out;
    });
}

/** Arguments inside the schema, steered by the hints. */
export function validishArguments(schema: JsonSchema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  return objectArb(schema, { root: schema, hints, depth: 0 });
}

/** Mostly hostile, sometimes valid-ish: the mix each tool is called with. */
export function toolArguments(schema: JsonSchema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    { weight: 2, arbitrary: validishArguments(schema, hints) },
    { weight: 3, arbitrary: hostileArguments(schema, hints) },
  );
}
