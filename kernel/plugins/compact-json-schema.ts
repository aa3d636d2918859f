// What zod's JSON Schema carries that says nothing a client does not already assume, removed before a
// schema is published: every tools/list pays for each byte, once per tool, in every agent's context.
// Each rule is lossless for a JSON Schema 2020-12 validator (the MCP default dialect since 2025-11-25).

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * True for zod's recursive "any JSON value" definition: anyOf string, number, boolean, null, an array
 * of itself and an object of itself. Any JSON value matches it, so `{}` says the same.
 */
function isAnyJsonValue(def: Json | undefined, ref: string): boolean {
  if (!isObject(def) || !Array.isArray(def.anyOf) || Object.keys(def).length !== 1) return false;
  const types = new Set<string>();
  for (const branch of def.anyOf) {
    if (!isObject(branch) || typeof branch.type !== 'string') return false;
    if (branch.type === 'array') {
      if (!isObject(branch.items) || branch.items.$ref !== ref) return false;
    } else if (branch.type === 'object') {
      if (!isObject(branch.additionalProperties) || branch.additionalProperties.$ref !== ref) return false;
    }
    types.add(branch.type);
  }
  return ['string', 'number', 'boolean', 'null', 'array', 'object'].every((t) => types.has(t));
}

function compactNode(node: Json, anyJsonRefs: ReadonlySet<string>): Json {
  if (Array.isArray(node)) return node.map((n) => compactNode(n, anyJsonRefs));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string' && anyJsonRefs.has(node.$ref)) {
    // Keep what sits beside the reference (a description, a default); drop the reference itself.
    const rest: JsonObject = {};
    for (const [k, v] of Object.entries(node)) if (k !== '$ref') rest[k] = compactNode(v, anyJsonRefs);
    return rest;
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'propertyNames' && isObject(v) && v.type === 'string' && Object.keys(v).length === 1) continue; // JSON object keys are strings
    out[k] = compactNode(v, anyJsonRefs);
  }
  // An object type allows any further property unless told otherwise.
  if (isObject(out.additionalProperties) && Object.keys(out.additionalProperties).length === 0)
    delete out.additionalProperties;
  return out;
}

/** The published form of a tool's input or output schema (see the file's header). */
export function compactJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const root = schema as JsonObject;
  const defs = isObject(root.$defs) ? root.$defs : undefined;
  const anyJsonRefs = new Set<string>();
  if (defs) {
    for (const [name, def] of Object.entries(defs)) {
      const ref = `#/$defs/${name}`;
      if (isAnyJsonValue(def, ref)) anyJsonRefs.add(ref);
    }
  }
  const out = compactNode(root, anyJsonRefs) as JsonObject;
  // The dialect is MCP's default (2020-12); saying so on every tool costs bytes and adds nothing.
  if (out.$schema === 'https://json-schema.org/draft/2020-12/schema') delete out.$schema;
  if (isObject(out.$defs)) {
    for (const ref of anyJsonRefs) delete out.$defs[ref.slice('#/$defs/'.length)];
    if (Object.keys(out.$defs).length === 0) delete out.$defs;
  }
  return out;
}
