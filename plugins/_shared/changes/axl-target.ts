// The object one AXL write names, from its arguments: the get request that reads it before the change
// and the one that reads it after (a rename or an add names it anew).
import type { Json } from '../axl/schema.ts';
import type { XsdModel } from '../axl/xsd-model.ts';
import type { AxlKind, NoBeforeImage } from './axl-kinds.ts';
import { describeAxlKind, isAxlKind } from './axl-kinds.ts';

export interface AxlTarget {
  kind: AxlKind;
  /** Get arguments naming the object as it is before the change (`{ name }`, `{ uuid }`, `{}` for a singleton). */
  before: Record<string, Json>;
  /** Get arguments naming it after the change: the new name of a rename, the keys of an add. */
  after: Record<string, Json>;
}

/** The text of a key value: a foreign key (`{ $value: 'PT_A', $attributes: { uuid } }`) by its name. */
export function keyText(value: Json | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (!Array.isArray(value) && '$value' in value) return keyText(value.$value);
  if (!Array.isArray(value) && '_' in value) return keyText(value._);
  return undefined;
}

/** The target of `operation` called with `args`, or why it has no before-image. */
export function resolveAxlTarget(
  xsd: XsdModel,
  operation: string,
  args: Record<string, Json>,
): AxlTarget | NoBeforeImage {
  const kind = describeAxlKind(xsd, operation);
  if (!isAxlKind(kind)) return kind;
  const holder = kind.verb === 'add' ? args[kind.tag] : args;
  if (holder === null || typeof holder !== 'object' || Array.isArray(holder))
    return { operation, reason: `${operation} carries no ${kind.tag} element` };
  const given: Record<string, Json> = {};
  for (const [k, v] of Object.entries(holder)) given[kind.aliases[k] ?? k] = v;
  const uuid = keyText(given.uuid);
  if (kind.verb !== 'add' && kind.byUuid && uuid) {
    return { kind, before: { uuid }, after: { uuid } };
  }
  const before: Record<string, Json> = {};
  for (const key of kind.keys) {
    const text = keyText(given[key]);
    if (text !== undefined) before[key] = text;
  }
  if (kind.keys.length > 0 && Object.keys(before).length === 0) {
    return {
      operation,
      reason: `the request names the object by none of ${[...kind.keys, ...(kind.byUuid ? ['uuid'] : [])].join(', ')}`,
    };
  }
  const after = { ...before };
  if (kind.verb === 'update') {
    for (const [element, key] of Object.entries(kind.renames)) {
      const text = keyText(given[element]);
      if (text !== undefined) after[key] = text;
    }
  }
  return { kind, before, after };
}
