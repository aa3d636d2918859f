// The before-image of an AXL write: the object read through its get, normalised for comparison.
import { BadRequestError, NotFoundError } from '../../../kernel/sdk/index.ts';
import type { AxlClient } from '../axl/axl-client.ts';
import { AxlFaultError } from '../axl/axl-client.ts';
import type { Json } from '../axl/schema.ts';
import type { AxlTarget } from './axl-target.ts';
import type { Plain } from './values.ts';
import { normalise } from './values.ts';

export type AxlImage =
  | { state: 'absent' }
  | {
      state: 'present';
      /** The object's own uuid, when the node gave it. */
      uuid?: string;
      /** The object as the get answered it (what an inverse is built from). */
      raw: Record<string, Json>;
      /** The content compared and diffed: see `normalise`. */
      image: Plain;
    };

/**
 * AXL's "Item not valid: The specified ... was not found" (code 5007). Public source: the AXL
 * Developer Guide's error code list (developer.cisco.com/docs/axl, "AXL Error Codes": 5007 Item not valid).
 */
const NOT_FOUND_CODE = 5007;

/** Elements that are the node's bookkeeping rather than content. */
const NOT_CONTENT: ReadonlySet<string> = new Set(['uuid']);

/** Reads the object `args` names (by `kind.get`): absent when the node says it does not exist. */
export async function readAxlImage(
  client: AxlClient,
  target: AxlTarget,
  side: 'before' | 'after' = 'before',
): Promise<AxlImage> {
  const args = side === 'before' ? target.before : target.after;
  let answer: Json;
  try {
    answer = await client.call(target.kind.get, args);
  } catch (err) {
    if (err instanceof AxlFaultError && isNotFound(err)) return { state: 'absent' };
    throw err;
  }
  return imageOf(answer, target.kind.tag);
}

/** An image from a get answer (`{ return: { phone: {...} } }`). */
export function imageOf(answer: Json, tag: string): AxlImage {
  const ret = record(record(answer)?.return);
  const raw = record(ret?.[tag]);
  if (!raw) return { state: 'absent' };
  const attrs = record(raw.$attributes);
  const uuid =
    typeof attrs?.uuid === 'string' ? attrs.uuid : typeof raw.uuid === 'string' ? raw.uuid : undefined;
  return {
    state: 'present',
    ...(uuid ? { uuid } : {}),
    raw,
    image: normalise(raw, NOT_CONTENT) ?? {},
  };
}

/**
 * The before-image a preview shows: an add needs the object absent, an update or a remove needs it
 * present. Otherwise the write would fail on the node, and the preview says so with a coded error.
 */
export async function readAxlBeforeImage(client: AxlClient, target: AxlTarget): Promise<AxlImage> {
  const image = await readAxlImage(client, target);
  const { verb, object } = target.kind;
  const named = describeArgs(target.before);
  if (verb === 'add' && image.state === 'present')
    throw new BadRequestError(`${object} ${named} exists already: the add would fail`);
  if (verb !== 'add' && image.state === 'absent')
    throw new NotFoundError(`${object} ${named} does not exist: there is nothing to ${verb}`);
  return image;
}

function isNotFound(err: AxlFaultError): boolean {
  return err.axlCode === NOT_FOUND_CODE || /was not found/i.test(err.axlMessage);
}

function describeArgs(args: Record<string, Json>): string {
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length > 0 ? parts.join(' ') : '(the only one)';
}

function record(v: Json | undefined): Record<string, Json> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}
