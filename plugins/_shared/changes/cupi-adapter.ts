// The CUPI family's preview and read-back for the change gate: a PUT or DELETE's object read through its
// GET, the field diff of the body, and the object read back after the write (after a POST, the one its
// Location names). Nothing here sends a write; the tool hands in a reader and its path canonicaliser.
import type { Json } from '../axl/schema.ts';
import type { CupiImage, CupiReader } from './cupi-change.ts';
import {
  createdPath,
  cupiChangeDiff,
  readCupiBeforeImage,
  readCupiImage,
  resolveCupiTarget,
} from './cupi-change.ts';
import { classifyCupi } from './classify.ts';
import type { ChangeAdapter, ChangePreview, GateInput } from './gate-types.ts';
import type { Plain } from './values.ts';
import { isRecord } from './values.ts';

export interface CupiChangeInput extends GateInput {
  host: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean> | undefined;
  body?: Record<string, Json> | Json[] | undefined;
}

export interface CupiAdapterDeps {
  reader: CupiReader;
  /** The path policy's canonical form of a caller's path (throws BAD_REQUEST on an unsafe one). */
  canonical(path: string): string;
}

export function cupiChangeAdapter(deps: CupiAdapterDeps): ChangeAdapter<CupiChangeInput> {
  const { reader, canonical } = deps;
  return {
    kind: 'cupi',
    classify: (input) => classifyCupi(input.method, canonical(input.path)).class,
    async preview(input) {
      const path = canonical(input.path);
      const cls = classifyCupi(input.method, path).class;
      const base = {
        change_class: cls === 'read' ? ('change' as const) : cls,
        kind: 'cupi' as const,
        operation: `${input.method} ${path}`,
        request: {
          ...(input.query !== undefined ? { query: input.query } : {}),
          ...(input.body !== undefined ? { body: input.body } : {}),
        },
      };
      const target = resolveCupiTarget(input.method, path);
      if (!('verb' in target))
        return { ...base, object: { type: path, path }, before: null, diff: [], unreadable: target.reason };
      // Confirming a plan reads the object as it is now, present or not: one deleted by someone else
      // since the preview then differs from the plan's before-image (CHANGED_SINCE_PREVIEW).
      const image =
        input.plan_id === undefined || target.verb === 'create'
          ? await readCupiBeforeImage(reader, target)
          : await readCupiImage(reader, path);
      const body = isRecord(input.body) ? (input.body as Record<string, Json>) : undefined;
      const preview: ChangePreview = {
        ...base,
        object: { type: target.collection, path },
        before: imageOrNull(image),
        diff: cupiChangeDiff(target, image, body),
      };
      if (Array.isArray(input.body)) preview.unreadable = 'a list body is not diffed field by field';
      return preview;
    },
    async readAfter(input, preview, applied) {
      const path = canonical(input.path);
      const target = resolveCupiTarget(input.method, path);
      if (!('verb' in target)) return null;
      if (target.verb !== 'create') return imageOrNull(await readCupiImage(reader, path));
      const location = locationOf(applied);
      if (location === undefined) return null;
      const made = createdPath(location, target.collection);
      // The journal names the created object by its own path (what an undo deletes), not the collection:
      // set in place, as the gate's journal entry holds this very object.
      preview.object.path = made;
      return imageOrNull(await readCupiImage(reader, made));
    },
  };
}

function imageOrNull(image: CupiImage): Plain | null {
  return image.state === 'present' ? image.image : null;
}

/** The Location a POST answered, from the client's answer or the tool's reply (`structured.location`). */
function locationOf(applied: unknown): string | undefined {
  const of = (v: unknown): unknown =>
    v !== null && typeof v === 'object' && 'location' in v
      ? (v as { location: unknown }).location
      : undefined;
  const direct = of(applied);
  const structured =
    applied !== null && typeof applied === 'object' && 'structured' in applied
      ? of((applied as { structured: unknown }).structured)
      : undefined;
  const found = direct ?? structured;
  return typeof found === 'string' && found !== '' ? found : undefined;
}
