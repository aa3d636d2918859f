// What a preview of one AXL write holds, read without changing anything on the node: the target, its
// before-image, the objects its remove would take something from, and the field-by-field diff.
import type { AxlClient } from '../axl/axl-client.ts';
import type { Json } from '../axl/schema.ts';
import type { XsdModel } from '../axl/xsd-model.ts';
import type { AxlImage } from './axl-before-image.ts';
import { readAxlBeforeImage, readAxlImage } from './axl-before-image.ts';
import type { AxlDependant } from './axl-dependants.ts';
import { findAxlDependants } from './axl-dependants.ts';
import { axlChangeDiff } from './axl-intent.ts';
import type { NoBeforeImage } from './axl-kinds.ts';
import type { AxlTarget } from './axl-target.ts';
import { resolveAxlTarget } from './axl-target.ts';
import type { FieldChange } from './field-diff.ts';

export interface AxlChangePlan {
  target: AxlTarget;
  before: AxlImage;
  dependants: AxlDependant[];
  diff: FieldChange[];
}

/**
 * Reads (get, and executeSQLQuery for dependants) and never writes. NotFoundError when an update or
 * remove names a missing object, BadRequestError when an add names an existing one; with `asItIs`, the
 * object as it is, present or not (a plan's confirmation compares it with the preview's).
 */
export async function planAxlChange(
  client: AxlClient,
  xsd: XsdModel,
  operation: string,
  args: Record<string, Json>,
  o: { asItIs?: boolean } = {},
): Promise<AxlChangePlan | NoBeforeImage> {
  const target = resolveAxlTarget(xsd, operation, args);
  if (!('kind' in target)) return target;
  const before = o.asItIs
    ? await readAxlImage(client, target, 'before')
    : await readAxlBeforeImage(client, target);
  const dependants = await findAxlDependants(client, xsd, target, before);
  return { target, before, dependants, diff: axlChangeDiff(xsd, target, before, args) };
}
