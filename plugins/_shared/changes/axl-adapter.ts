// The AXL family's preview and read-back for the change gate: the before-image through the object's
// get (and executeSQLQuery for what a remove takes from others), the field diff, and the object read
// back after the write. Nothing here sends a write; the tool hands in its client and the schema.
import type { ChangeClass, ChangeObject } from '../../../kernel/sdk/index.ts';
import type { AxlClient } from '../axl/axl-client.ts';
import type { Json } from '../axl/schema.ts';
import type { XsdModel } from '../axl/xsd-model.ts';
import type { AxlImage } from './axl-before-image.ts';
import { readAxlImage } from './axl-before-image.ts';
import type { AxlDependant } from './axl-dependants.ts';
import { buildAxlInverse } from './axl-inverse.ts';
import { planAxlChange } from './axl-plan.ts';
import type { AxlTarget } from './axl-target.ts';
import { keyText, resolveAxlTarget } from './axl-target.ts';
import { classifyAxl } from './classify.ts';
import type { ChangeAdapter, ChangePreview, GateInput } from './gate-types.ts';
import type { Plain } from './values.ts';

export interface AxlChangeInput extends GateInput {
  host: string;
  operation: string;
  args: Record<string, Json>;
}

/**
 * A dependant of a removed object, as the journal keeps it for the undo: the update that names it
 * (`updatePhone` with `{ name }`), the element the remove takes from it, its image before.
 */
export interface AxlDependantImage {
  field: string;
  operation: string;
  args: Record<string, Json>;
  image: Plain | null;
}

/**
 * The before-image a preview shows and a plan is bound to: the object's normalised image (null when it
 * does not exist yet), or, for a remove that takes something from other objects, the image with theirs.
 */
export type AxlBefore = Plain | null | { image: Plain; dependants: AxlDependantImage[] };

export function axlChangeAdapter(client: AxlClient, xsd: XsdModel): ChangeAdapter<AxlChangeInput> {
  return {
    kind: 'axl',
    classify: (input) => classifyAxl(input.operation, input.args).class,
    preview: (input) => previewAxl(client, xsd, input),
    async readAfter(input, _preview, applied) {
      const target = resolveAxlTarget(xsd, input.operation, input.args);
      if (!('kind' in target)) return null;
      if (target.kind.verb === 'remove') return imageOrNull(await readAxlImage(client, target, 'after'));
      const uuid = target.kind.verb === 'add' ? createdUuid(applied) : undefined;
      // An add's object is read by the keys it was given; by the uuid the add answered when it has none.
      const read =
        uuid && target.kind.byUuid && Object.keys(target.after).length === 0
          ? { ...target, after: { uuid } }
          : target;
      return imageOrNull(await readAxlImage(client, read, 'after'));
    },
  };
}

async function previewAxl(client: AxlClient, xsd: XsdModel, input: AxlChangeInput): Promise<ChangePreview> {
  const { operation, args } = input;
  const change_class = writeClass(classifyAxl(operation, args).class);
  const base = { change_class, kind: 'axl' as const, operation, request: args };
  // Confirming a plan reads the object as it is now, whatever it is: an object removed or created by
  // someone else since the preview then differs from the plan's before-image (CHANGED_SINCE_PREVIEW)
  // rather than failing the existence check a first preview makes.
  const plan = await planAxlChange(client, xsd, operation, args, { asItIs: input.plan_id !== undefined });
  if (!('target' in plan))
    return { ...base, object: { type: operation }, before: null, diff: [], unreadable: plan.reason };
  const { target, before: image, dependants, diff } = plan;
  const inverse = buildAxlInverse(xsd, target, image, { args }, dependants);
  return {
    ...base,
    object: objectOf(target, image),
    before: beforeOf(image, dependants),
    diff,
    ...(inverse.losses.length > 0 ? { losses: inverse.losses } : {}),
  };
}

/** The gate lets a read through untouched and never previews it; a read here is a caller's mistake. */
function writeClass(cls: ChangeClass): Exclude<ChangeClass, 'read'> {
  return cls === 'read' ? 'change' : cls;
}

function beforeOf(image: AxlImage, dependants: readonly AxlDependant[]): AxlBefore {
  const own = imageOrNull(image);
  if (dependants.length === 0 || own === null) return own;
  return {
    image: own,
    dependants: dependants.map((d) => ({
      field: d.field,
      operation: d.target.kind.operation,
      args: d.target.before,
      image: imageOrNull(d.before),
    })),
  };
}

function objectOf(target: AxlTarget, image: AxlImage): ChangeObject {
  const keys = target.kind.verb === 'add' ? target.after : target.before;
  const name = Object.values(keys)
    .map((v) => keyText(v))
    .filter((v): v is string => v !== undefined)
    .join(' ');
  const uuid = image.state === 'present' ? image.uuid : keyText(target.before.uuid);
  return {
    type: target.kind.tag,
    ...(name !== '' && !('uuid' in keys && Object.keys(keys).length === 1) ? { name } : {}),
    ...(uuid ? { uuid } : {}),
  };
}

function imageOrNull(image: AxlImage): Plain | null {
  return image.state === 'present' ? image.image : null;
}

/** The uuid an add answered (`{ return: '{...}' }`), from the client's answer or the tool's reply. */
function createdUuid(applied: unknown): string | undefined {
  const ret = (v: unknown): unknown =>
    v !== null && typeof v === 'object' && 'return' in v ? (v as { return: unknown }).return : undefined;
  const direct = ret(applied);
  const structured =
    applied !== null && typeof applied === 'object' && 'structured' in applied
      ? ret((applied as { structured?: { result?: unknown } }).structured?.result)
      : undefined;
  const found = direct ?? structured;
  return typeof found === 'string' ? found : undefined;
}
