// The undo of a journalled CUPI change, from the record the CUPI adapter wrote (cupi-adapter.ts): the
// object by its path (a POST's created object by the path its Location gave), the before-image put
// back field by field.
import type { ChangeRecord, NodeRequests } from '../../../kernel/sdk/index.ts';
import { NoInverseError } from '../../../kernel/sdk/index.ts';
import type { Json } from '../axl/schema.ts';
import type { CupiImage, CupiReader, CupiRequestPlan, CupiTarget } from './cupi-change.ts';
import { buildCupiInverse, createdPath, readCupiImage, resolveCupiTarget } from './cupi-change.ts';
import { assertSomethingToSend, assertUnchangedSince } from './undo-checks.ts';
import type { UndoSource } from './undo-plan.ts';
import { REDACTED_LOSS, topField, withoutRedacted } from './undo-redacted.ts';
import type { Plain } from './values.ts';
import { isRecord } from './values.ts';

/** Sends one CUPI request (the tool's session to the record's host). */
export type CupiSend = (r: CupiRequestPlan) => Promise<unknown>;

export function cupiUndoSource(
  reader: CupiReader,
  send: CupiSend,
  record: ChangeRecord,
  node: Pick<NodeRequests, 'permit'>,
  /** The template a deleted user (alias) or call handler (ObjectId) is re-created from. */
  template?: string,
): UndoSource<CupiRequestPlan> {
  const { target, objectPath } = targetOf(record);
  return {
    async plan() {
      const current = imageOrNull(await readCupiImage(reader, objectPath));
      assertUnchangedSince(record, current);
      const { image: before, paths } = withoutRedacted((record.before ?? null) as Plain | null);
      const { body } = bodyOf(record.request);
      // A PUT restores only the fields it set: one whose earlier value the journal redacted stays as it is.
      const unknown = new Set(paths.map(topField));
      const restorable =
        body && target.verb === 'update'
          ? Object.fromEntries(Object.entries(body).filter(([k]) => !unknown.has(k)))
          : body;
      const inverse = buildCupiInverse(
        target,
        asImage(before),
        {
          ...(restorable !== undefined ? { body: restorable } : {}),
          ...(target.verb === 'create' ? { location: objectPath } : {}),
        },
        template === undefined ? {} : { userTemplateAlias: template, callHandlerTemplateObjectId: template },
      );
      const lost = target.verb === 'update' ? paths.filter((p) => topField(p) in (body ?? {})) : paths;
      if (target.verb !== 'create')
        inverse.losses.push(...lost.map((path) => ({ path, reason: REDACTED_LOSS })));
      assertSomethingToSend(record, inverse);
      for (const r of inverse.requests) node.permit('cupi', `${r.method} ${r.path}`);
      return {
        kind: 'cupi' as const,
        operation: `undo ${record.operation}`,
        object: record.object,
        current,
        restores: before,
        requests: inverse.requests,
        losses: inverse.losses,
      };
    },
    async send(plan) {
      const answers: unknown[] = [];
      for (const r of plan.requests) answers.push(await send(r));
      return answers;
    },
    async readBack(plan, applied) {
      // A deleted object comes back under a new path: the one its re-create's Location names.
      const path = target.verb === 'delete' ? createdOf(applied, target.collection) : objectPath;
      return path === undefined ? null : imageOrNull(await readCupiImage(reader, path));
    },
  };
}

function targetOf(record: ChangeRecord): { target: CupiTarget; objectPath: string } {
  const space = record.operation.indexOf(' ');
  const method = record.operation.slice(0, space);
  const path = record.operation.slice(space + 1);
  const target = resolveCupiTarget(method, path);
  if (!('verb' in target))
    throw new NoInverseError(`change ${record.id} (${record.operation}) has no inverse: ${target.reason}`);
  if (target.verb !== 'create') return { target, objectPath: target.path };
  const made = record.object.path;
  if (made === undefined || made === target.path)
    throw new NoInverseError(
      `change ${record.id} (${record.operation}): the journal does not name the object it created (no Location), so it cannot be deleted`,
    );
  return { target, objectPath: made };
}

function bodyOf(request: unknown): { body?: Record<string, Json> } {
  const body = isRecord(request) ? request.body : undefined;
  return isRecord(body) ? { body: body as Record<string, Json> } : {};
}

function asImage(image: Plain | null): CupiImage {
  if (image === null || !isRecord(image)) return { state: 'absent' };
  return { state: 'present', raw: image as Record<string, Json>, image };
}

function imageOrNull(image: CupiImage): Plain | null {
  return image.state === 'present' ? image.image : null;
}

/** The path of the object the last POST of the undo created, from its answer's Location. */
function createdOf(applied: unknown, collection: string): string | undefined {
  const last = Array.isArray(applied) ? (applied.at(-1) as unknown) : undefined;
  const location = isRecord(last as Plain) ? (last as { location?: unknown }).location : undefined;
  return typeof location === 'string' && location !== '' ? createdPath(location, collection) : undefined;
}
