// The AXL requests that undo an applied write, built from its before-image and the schema: remove of
// an add, add of a remove, update back to the before-image values of what an update set. What cannot be
// brought back is reported, never papered over.
import type { Json } from '../axl/schema.ts';
import type { XsdModel } from '../axl/xsd-model.ts';
import type { AxlImage } from './axl-before-image.ts';
import type { AxlDependant } from './axl-dependants.ts';
import type { AxlTarget } from './axl-target.ts';
import { keyText } from './axl-target.ts';
import { shapeAs } from './axl-shape.ts';
import { isSecretField } from './values.ts';

export interface AxlRequest {
  operation: string;
  args: Record<string, Json>;
}

/** Something the inverse does not restore, and why. */
export interface Loss {
  path: string;
  reason: string;
}

export interface AxlInverse {
  /** Sent in order, they undo the change (none when nothing can). */
  requests: AxlRequest[];
  losses: Loss[];
}

export interface AppliedAxlChange {
  args: Record<string, Json>;
  /** What the write answered in `return`: the uuid of the object an add created. */
  uuid?: string;
}

const LIST_EDIT = /^(add|remove)([A-Z]\w*)$/;

/**
 * The inverse of an applied change. `dependants` (from findAxlDependants, read before the change) are
 * put back after the re-add of a removed object: the element the remove took from each of them.
 */
export function buildAxlInverse(
  xsd: XsdModel,
  target: AxlTarget,
  before: AxlImage,
  applied: AppliedAxlChange,
  dependants: readonly AxlDependant[] = [],
): AxlInverse {
  const { kind } = target;
  if (kind.verb === 'add') {
    if (!kind.remove) return none(`the schema has no remove${kind.object}`);
    const args = kind.byUuid && applied.uuid ? { uuid: applied.uuid } : target.after;
    return { requests: [{ operation: kind.remove, args }], losses: [] };
  }
  if (before.state !== 'present') return none('there is no before-image to restore');
  if (kind.verb === 'update') return restore(xsd, target, before, applied);
  const inverse = readd(xsd, target, before);
  if (inverse.requests.length === 0) return inverse;
  for (const dep of dependants) {
    const named = `${dep.target.kind.object} ${Object.values(dep.target.before).join(' ')}`;
    if (dep.before.state !== 'present') {
      inverse.losses.push({
        path: `${named}.${dep.field}`,
        reason: 'it could not be read before the change',
      });
      continue;
    }
    const back = restore(xsd, dep.target, dep.before, { args: { [dep.field]: '' } });
    inverse.requests.push(...back.requests);
    inverse.losses.push(...back.losses.map((l) => ({ ...l, path: `${named}.${l.path}` })));
  }
  return inverse;
}

function none(reason: string): AxlInverse {
  return { requests: [], losses: [{ path: '', reason }] };
}

/** The add of a removed object from its before-image, shaped as the add's type accepts it. */
function readd(
  xsd: XsdModel,
  target: AxlTarget,
  before: Extract<AxlImage, { state: 'present' }>,
): AxlInverse {
  const { kind } = target;
  if (!kind.add) return none(`the schema has no add${kind.object}`);
  const holder = xsd.elementFields(kind.add)?.[0];
  const object = holder ? shapeAs(xsd, holder, before.raw) : undefined;
  if (!holder || object === undefined) return none(`nothing of the before-image fits add${kind.object}`);
  const losses: Loss[] = [
    {
      path: 'uuid',
      reason: `the ${kind.object} comes back with a new uuid: what referred to the old one by uuid does not follow it`,
    },
  ];
  for (const f of xsd.children(holder)) {
    if (isSecretField(f.name))
      losses.push({ path: f.name, reason: `${kind.get} never returns it: the re-added object has none` });
  }
  return { requests: [{ operation: kind.add, args: { [holder.name]: object } }], losses };
}

/** The update that puts back the before-image values of every element the applied update set. */
function restore(
  xsd: XsdModel,
  target: AxlTarget,
  before: Extract<AxlImage, { state: 'present' }>,
  applied: AppliedAxlChange,
): AxlInverse {
  const { kind } = target;
  const update = kind.update ?? kind.operation;
  const fields = new Map((xsd.elementFields(update) ?? []).map((f) => [f.name, f]));
  const naming = new Set(['uuid', ...Object.keys(target.before)]);
  const args: Record<string, Json> = kind.byUuid && before.uuid ? { uuid: before.uuid } : { ...target.after };
  const losses: Loss[] = [];
  let changes = 0;
  for (const name of Object.keys(applied.args)) {
    if (naming.has(name) || name.startsWith('$')) continue;
    if (isSecretField(name)) {
      losses.push({
        path: name,
        reason: `${kind.get} never returns it: the earlier value cannot be put back`,
      });
      continue;
    }
    const renamed = kind.renames[name];
    const listed = LIST_EDIT.exec(name);
    const element = renamed
      ? name
      : listed && fields.has(lowerFirst(listed[2] as string))
        ? lowerFirst(listed[2] as string)
        : name;
    const field = fields.get(element);
    if (!field) {
      losses.push({ path: name, reason: `${update} has no ${element} element to put it back with` });
      continue;
    }
    const was = renamed ? keyText(before.raw[renamed]) : shapeAs(xsd, field, before.raw[element]);
    // Absent before: an empty element clears it (AXL sets a field to its empty or NULL value so).
    args[element] = was ?? '';
    changes++;
  }
  return { requests: changes > 0 ? [{ operation: update, args }] : [], losses };
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
