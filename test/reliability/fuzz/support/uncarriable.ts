// Arguments for the tools that talk to nodes with one character a node cannot receive spliced into one
// of their strings (a value or an object key, at any depth): NUL and lone surrogates, which no text can
// carry, and the C0 controls and non-characters XML 1.0 (SOAP) cannot carry even escaped.
import fc from 'fast-check';
import { withOwnKey } from './hostile.ts';
import { validishArguments, type Hints, type JsonSchema } from './schema-arbitrary.ts';

/** Never carriable to any node, whatever the protocol. */
export const NEVER_CARRIED = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff'] as const;
/** Not carriable in a SOAP request (XML 1.0), nor on a CLI line. */
export const NOT_XML = [
  '\u0001',
  '\u0008',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u001f',
  '\ufffe',
  '\uffff',
] as const;

export interface UncarriableCase {
  args: Record<string, unknown>;
  /** The top-level argument the character went into. */
  argument: string;
  char: string;
}

type Leaf = { path: (string | number)[]; key: boolean };

/** Every string of `value` (values, and object keys when `keys`), as paths from the root. */
function stringLeaves(value: unknown, path: (string | number)[] = [], depth = 0): Leaf[] {
  if (typeof value === 'string') return [{ path, key: false }];
  if (value === null || typeof value !== 'object' || depth > 8) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...path, i], depth + 1));
  return Object.entries(value).flatMap(([k, v]) => [
    // Top-level keys are the tool's argument names: a changed one is only an unknown argument.
    ...(path.length > 0 ? [{ path: [...path, k], key: true }] : []),
    ...stringLeaves(v, [...path, k], depth + 1),
  ]);
}

function splice(text: string, char: string, at: number): string {
  const i = text.length === 0 ? 0 : at % (text.length + 1);
  return text.slice(0, i) + char + text.slice(i);
}

/** A deep copy of `args` with `char` spliced into the string (or key) at `leaf`. */
function withChar(
  args: Record<string, unknown>,
  leaf: Leaf,
  char: string,
  at: number,
): Record<string, unknown> {
  const copy = structuredClone(args);
  let parent: Record<string | number, unknown> = copy;
  for (const step of leaf.path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = leaf.path.at(-1) as string | number;
  if (leaf.key) {
    const value = parent[last];
    delete parent[last];
    withOwnKey(parent, splice(String(last), char, at), value);
  } else {
    parent[last] = splice(parent[last] as string, char, at);
  }
  return copy;
}

/** Valid-ish arguments (steered by the hints) with one uncarriable character in one of their strings. */
export function uncarriableArguments(schema: JsonSchema, hints: Hints): fc.Arbitrary<UncarriableCase> {
  return fc
    .tuple(
      validishArguments(schema, hints),
      fc.nat(),
      fc.constantFrom<string>(...NEVER_CARRIED, ...NOT_XML),
      fc.nat(),
    )
    .filter(([args]) => stringLeaves(args).length > 0)
    .map(([args, pick, char, at]) => {
      const leaves = stringLeaves(args);
      const leaf = leaves[pick % leaves.length] as Leaf;
      return { args: withChar(args, leaf, char, at), argument: String(leaf.path[0]), char };
    });
}
