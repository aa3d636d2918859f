// The undo of a journalled AXL change, from the record the AXL adapter wrote (axl-adapter.ts): the
// request names the object again, the before-image (with what a remove took from other objects) is
// what the inverse puts back.
import type { ChangeRecord, NodeRequests } from '../../../kernel/sdk/index.ts';
import { NoInverseError } from '../../../kernel/sdk/index.ts';
import type { AxlClient } from '../axl/axl-client.ts';
import type { Json } from '../axl/schema.ts';
import type { XsdModel } from '../axl/xsd-model.ts';
import type { AxlDependantImage } from './axl-adapter.ts';
import type { AxlImage } from './axl-before-image.ts';
import { readAxlImage } from './axl-before-image.ts';
import type { AxlDependant } from './axl-dependants.ts';
import type { AxlRequest } from './axl-inverse.ts';
import { buildAxlInverse } from './axl-inverse.ts';
import type { AxlTarget } from './axl-target.ts';
import { resolveAxlTarget } from './axl-target.ts';
import { assertSomethingToSend, assertUnchangedSince } from './undo-checks.ts';
import type { UndoPlan, UndoSource } from './undo-plan.ts';
import { REDACTED_LOSS, topField, withoutRedacted } from './undo-redacted.ts';
import type { Plain } from './values.ts';
import { isRecord } from './values.ts';

export function axlUndoSource(
  client: AxlClient,
  xsd: XsdModel,
  record: ChangeRecord,
  node: Pick<NodeRequests, 'permit'>,
): UndoSource<AxlRequest> {
  const target = targetOf(xsd, record.operation, record.request, record.id);
  return {
    async plan() {
      // Named as the change left it: an add's or a rename's new keys.
      const current = imageOrNull(await readAxlImage(client, target, 'after'));
      assertUnchangedSince(record, current);
      const { image: kept, dependants } = splitBefore(record.before);
      const { image, paths } = withoutRedacted(kept);
      const args = record.request as Record<string, Json>;
      // An update restores only the fields it set: one whose earlier value the journal redacted is left
      // as it is now, and said so.
      const unknown = new Set(paths.map(topField));
      const restorable =
        target.kind.verb === 'update'
          ? Object.fromEntries(Object.entries(args).filter(([k]) => !unknown.has(k)))
          : args;
      const inverse = buildAxlInverse(
        xsd,
        target,
        asImage(image),
        { args: restorable },
        dependants.flatMap((d) => dependantOf(xsd, d)),
      );
      const lost = target.kind.verb === 'update' ? paths.filter((p) => topField(p) in args) : paths;
      inverse.losses.push(...lost.map((path) => ({ path, reason: REDACTED_LOSS })));
      assertSomethingToSend(record, inverse);
      // The caller's allowlist decides each request the undo sends, as if it sent them by axl_call.
      for (const r of inverse.requests) node.permit('axl', r.operation);
      return {
        kind: 'axl',
        operation: `undo ${record.operation}`,
        object: record.object,
        current,
        restores: image,
        requests: inverse.requests,
        losses: inverse.losses,
      } satisfies UndoPlan<AxlRequest>;
    },
    async send(plan) {
      const answers: Json[] = [];
      for (const r of plan.requests) answers.push(await client.call(r.operation, r.args));
      return answers;
    },
    async readBack() {
      // Named as before the change: the undo of a rename brings the old name back.
      return imageOrNull(await readAxlImage(client, target, 'before'));
    },
  };
}

function targetOf(xsd: XsdModel, operation: string, request: unknown, id: string): AxlTarget {
  if (!isRecord(request)) throw new NoInverseError(`change ${id}: the journal holds no request to undo`);
  const target = resolveAxlTarget(xsd, operation, request as Record<string, Json>);
  if (!('kind' in target))
    throw new NoInverseError(`change ${id} (${operation}) has no inverse: ${target.reason}`);
  return target;
}

/** The adapter's before-image: the object's image, or the image with its dependants' (a remove). */
function splitBefore(before: unknown): { image: Plain | null; dependants: AxlDependantImage[] } {
  if (isRecord(before) && 'dependants' in before && 'image' in before && Array.isArray(before.dependants)) {
    return {
      image: before.image as Plain,
      dependants: before.dependants as unknown as AxlDependantImage[],
    };
  }
  return { image: (before ?? null) as Plain | null, dependants: [] };
}

/**
 * A normalised image stands in for the get's answer: references are their names and values text,
 * which is how an add or update request accepts them.
 */
function asImage(image: Plain | null): AxlImage {
  if (image === null || !isRecord(image)) return { state: 'absent' };
  return { state: 'present', raw: image as Record<string, Json>, image };
}

function dependantOf(xsd: XsdModel, d: AxlDependantImage): AxlDependant[] {
  const target = resolveAxlTarget(xsd, d.operation, d.args);
  if (!('kind' in target)) return [];
  return [{ field: d.field, target, before: asImage(withoutRedacted(d.image).image) }];
}

function imageOrNull(image: AxlImage): Plain | null {
  return image.state === 'present' ? image.image : null;
}
