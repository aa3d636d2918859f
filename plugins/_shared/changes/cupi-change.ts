// Before-images, diffs and inverses of Unity Connection (CUPI) writes: PUT and DELETE name an object by
// its path, whose GET is the before-image; POST creates one in a collection, its path read from the
// Location header. Public source: Cisco's CUPI API guides (developer.cisco.com/docs/cisco-unity-connection
// -provisioning-interface-cupi-api): "CUPI API for Users" (POST /vmrest/users?templateAlias=...), "Call
// Handlers" (POST /vmrest/handlers/callhandlers?templateObjectId=...), "Distribution Lists".
import { BadRequestError, NotFoundError } from '../../../kernel/sdk/index.ts';
import type { Json } from '../axl/schema.ts';
import type { NoBeforeImage } from './axl-kinds.ts';
import type { Loss } from './axl-inverse.ts';
import type { FieldChange } from './field-diff.ts';
import { diffImages } from './field-diff.ts';
import type { Plain } from './values.ts';
import { isSecretField, normalise } from './values.ts';

const PREFIX = '/vmrest/';

export interface CupiTarget {
  verb: 'create' | 'update' | 'delete';
  /** The object's path (`/vmrest/users/<id>`); for a create, the collection's. */
  path: string;
  /** The collection below /vmrest/ (`users`, `handlers/callhandlers`). */
  collection: string;
}

/** Reads one CUPI object; undefined when the node answers 404. */
export interface CupiReader {
  get(path: string): Promise<Record<string, Json> | undefined>;
}

export type CupiImage = { state: 'absent' } | { state: 'present'; raw: Record<string, Json>; image: Plain };

export interface CupiRequestPlan {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: Record<string, Json>;
}

export interface CupiInverse {
  requests: CupiRequestPlan[];
  losses: Loss[];
}

/** What a create needs beyond the fields: the template a user or call handler is made from. */
export interface CupiCreateOptions {
  /** `templateAlias` of a user template (users cannot be created without one). */
  userTemplateAlias?: string;
  /** `templateObjectId` of a call handler template. */
  callHandlerTemplateObjectId?: string;
}

/**
 * Fields the node sets on every object and refuses or ignores on a create: its id, its own and its
 * references' URIs, its creation time. Compared neither (a re-created object has new ones).
 */
function nodeSet(field: string): boolean {
  return field === 'ObjectId' || field === 'CreationTime' || /URI$/.test(field);
}

/** The target of a CUPI write on a canonical path (see canonicalCupiPath), or why it has none. */
export function resolveCupiTarget(method: string, path: string): CupiTarget | NoBeforeImage {
  const operation = `${method} ${path}`;
  if (!path.startsWith(PREFIX)) return { operation, reason: 'not a path under /vmrest/' };
  const segments = path.slice(PREFIX.length).split('/');
  if (method === 'POST') return { verb: 'create', path, collection: segments.join('/') };
  if (method !== 'PUT' && method !== 'DELETE') return { operation, reason: `${method} changes nothing` };
  if (segments.length < 2) return { operation, reason: `${method} on a collection names no object` };
  return {
    verb: method === 'PUT' ? 'update' : 'delete',
    path,
    collection: segments.slice(0, -1).join('/'),
  };
}

export async function readCupiImage(reader: CupiReader, path: string): Promise<CupiImage> {
  const raw = await reader.get(path);
  if (!raw) return { state: 'absent' };
  return { state: 'present', raw, image: contentOf(raw) };
}

/** The before-image: none for a create; an update or delete needs the object to exist. */
export async function readCupiBeforeImage(reader: CupiReader, target: CupiTarget): Promise<CupiImage> {
  if (target.verb === 'create') return { state: 'absent' };
  const image = await readCupiImage(reader, target.path);
  if (image.state === 'absent')
    throw new NotFoundError(`${target.path} does not exist: there is nothing to ${target.verb}`);
  return image;
}

/** The content compared: what the node sets itself left out. */
export function contentOf(raw: Record<string, Json>): Plain {
  const drop = new Set(Object.keys(raw).filter(nodeSet));
  return normalise(raw, drop) ?? {};
}

/** Create: every field new; update: the fields the body sets; delete: every field gone. */
export function cupiChangeDiff(
  target: CupiTarget,
  before: CupiImage,
  body: Record<string, Json> | undefined,
): FieldChange[] {
  const was = before.state === 'present' ? before.image : undefined;
  if (target.verb === 'delete') return diffImages(was, undefined);
  const given = contentOf(body ?? {}) as Record<string, Plain>;
  if (target.verb === 'create') return diffImages(undefined, given);
  const meant: Record<string, Plain> = { ...((was ?? {}) as Record<string, Plain>) };
  for (const key of Object.keys(body ?? {})) {
    const v = given[key];
    if (v === undefined) delete meant[key];
    else meant[key] = v;
  }
  return diffImages(was, meant, { secretsUnreadable: true });
}

/**
 * The path of the object a POST created, from its Location header (an absolute URL or a path), checked
 * to be one object directly below the collection posted to.
 */
export function createdPath(location: string, collection: string): string {
  let path = location;
  if (/^https?:\/\//i.test(location)) {
    try {
      path = new URL(location).pathname;
    } catch {
      throw new BadRequestError("the created object's Location is not a URL");
    }
  }
  const base = `${PREFIX}${collection}/`;
  const id = path.startsWith(base) ? path.slice(base.length) : '';
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id))
    throw new BadRequestError(`the created object's Location is not an object of ${collection}`);
  return base + id;
}

/** What each collection's re-create cannot bring back beyond its fields. */
const CREATE_LOSSES: Readonly<Record<string, string[]>> = {
  users: [
    "PIN and web password: never returned by GET; the re-created user has the template's",
    'mailbox and messages: deleted with the user',
    "greetings, notification devices and other parts below the user: the template's, not the earlier ones",
  ],
  distributionlists: ["members (distributionlistmembers): not part of the list's own fields"],
  'handlers/callhandlers': [
    "greetings, menu entries and transfer rules below the handler: the template's, not the earlier ones",
  ],
};

export function buildCupiInverse(
  target: CupiTarget,
  before: CupiImage,
  applied: { body?: Record<string, Json>; location?: string },
  options: CupiCreateOptions = {},
): CupiInverse {
  if (target.verb === 'create') {
    if (!applied.location) return none('the node gave no Location for the created object');
    return {
      requests: [{ method: 'DELETE', path: createdPath(applied.location, target.collection) }],
      losses: [],
    };
  }
  if (before.state !== 'present') return none('there is no before-image to restore');
  if (target.verb === 'delete') return recreate(target, before.raw, options);
  const body: Record<string, Json> = {};
  const losses: Loss[] = [];
  for (const key of Object.keys(applied.body ?? {})) {
    if (isSecretField(key)) {
      losses.push({ path: key, reason: 'GET never returns it: the earlier value cannot be put back' });
      continue;
    }
    if (nodeSet(key)) continue;
    const was = before.raw[key];
    body[key] = was === undefined || was === null ? '' : was;
  }
  return {
    requests: Object.keys(body).length > 0 ? [{ method: 'PUT', path: target.path, body }] : [],
    losses,
  };
}

function recreate(target: CupiTarget, raw: Record<string, Json>, options: CupiCreateOptions): CupiInverse {
  const query: Record<string, string> = {};
  if (target.collection === 'users') {
    if (!options.userTemplateAlias) return none('a user is created from a template: give its alias');
    query.templateAlias = options.userTemplateAlias;
  }
  if (target.collection === 'handlers/callhandlers') {
    if (!options.callHandlerTemplateObjectId)
      return none('a call handler is created from a template: give its ObjectId');
    query.templateObjectId = options.callHandlerTemplateObjectId;
  }
  const body: Record<string, Json> = {};
  const losses: Loss[] = [
    {
      path: 'ObjectId',
      reason: 'the object comes back with a new ObjectId: what referred to the old one does not follow it',
    },
  ];
  for (const [key, value] of Object.entries(raw)) {
    if (nodeSet(key) || value === null || value === '') continue;
    if (typeof value === 'object') continue; // a nested part is its own resource
    body[key] = value;
  }
  for (const reason of CREATE_LOSSES[target.collection] ?? [])
    losses.push({ path: reason.split(':')[0] as string, reason });
  return {
    requests: [
      {
        method: 'POST',
        path: `${PREFIX}${target.collection}`,
        ...(Object.keys(query).length > 0 ? { query } : {}),
        body,
      },
    ],
    losses,
  };
}

function none(reason: string): CupiInverse {
  return { requests: [], losses: [{ path: '', reason }] };
}
