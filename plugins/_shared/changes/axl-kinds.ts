// Which object an AXL write touches and how to read it, derived from the schema the node serves: the
// add/update/remove request types and the identifying elements of the matching get request (name|uuid,
// pattern+routePartitionName, userid...). A few overrides where the schema's names disagree.
import type { XsdField, XsdModel } from '../axl/xsd-model.ts';

export type AxlVerb = 'add' | 'update' | 'remove';

/** One object kind as the schema describes it (no arguments yet). */
export interface AxlKind {
  operation: string;
  verb: AxlVerb;
  /** The operations' suffix: `Phone`, `RoutePartition`. */
  object: string;
  /** The read that returns the before-image: `getPhone`. */
  get: string;
  /** The element holding the object in the get answer's `return` and in an add request (`phone`). */
  tag: string;
  /**
   * Get request elements that name the object without its uuid: `name`; `pattern`,
   * `routePartitionName`; `userid`. Empty for a singleton (one per cluster: LDAP system).
   */
  keys: string[];
  /** The get request also takes the object's uuid. */
  byUuid: boolean;
  /** The sibling operations the schema has, for the inverse. */
  add?: string;
  update?: string;
  remove?: string;
  /** Update elements that change a key: `newName` → `name`, `newPattern` → `pattern`. */
  renames: Record<string, string>;
  /** Request elements named differently from the get's (`CommunityString` → `communityName`). */
  aliases: Record<string, string>;
}

/** An operation whose change has no before-image to read, and why. */
export interface NoBeforeImage {
  operation: string;
  reason: string;
}

const VERB = /^(add|update|remove)([A-Z]\w*)$/;

/**
 * Where the request and its get name the key differently. Public source: the AXL 15.0 schema
 * (AXLSoap.xsd, RemoveSNMPCommunityStringReq/GetSNMPCommunityStringReq, RemoveSNMPUserReq/GetSNMPUserReq):
 * the same value under two element names.
 */
const ALIASES: Readonly<Record<string, Record<string, string>>> = {
  removeSNMPCommunityString: { CommunityString: 'communityName' },
  removeSNMPUser: { User: 'userName' },
};

export function isAxlKind(k: AxlKind | NoBeforeImage): k is AxlKind {
  return 'get' in k;
}

/** The kind an add, update or remove operation changes, or why its before-image cannot be read. */
export function describeAxlKind(xsd: XsdModel, operation: string): AxlKind | NoBeforeImage {
  const m = VERB.exec(operation);
  if (!m) return { operation, reason: 'not an add, update or remove operation' };
  const verb = m[1] as AxlVerb;
  const object = m[2] as string;
  const request = xsd.elementFields(operation);
  if (!request) return { operation, reason: `the schema has no ${operation}` };
  const get = `get${object}`;
  const getFields = xsd.elementFields(get);
  if (!getFields)
    return { operation, reason: `the schema has no ${get} to read the object before the change` };
  const idFields = getFields.filter((f) => f.name !== 'returnedTags');
  const keys = idFields.filter((f) => f.name !== 'uuid').map((f) => f.name);
  const byUuid = idFields.some((f) => f.name === 'uuid');
  const tag = answerTag(xsd, get);
  if (!tag) return { operation, reason: `${get} answers no single object element` };
  const aliases = ALIASES[operation] ?? {};
  const offered = (fields: XsdField[]): Set<string> => new Set(fields.map((f) => aliases[f.name] ?? f.name));
  let named: Set<string>;
  if (verb === 'add') {
    const holder = request.length === 1 ? request[0] : undefined;
    if (!holder || holder.name !== tag)
      return { operation, reason: `${operation} does not carry one ${tag} element as ${get} answers it` };
    named = offered(xsd.children(holder));
  } else {
    named = offered(request);
  }
  const reaches = (byUuid && named.has('uuid')) || keys.every((k) => named.has(k));
  if (!reaches) {
    const has = [...named].filter((n) => n !== 'uuid').slice(0, 6);
    return {
      operation,
      reason: `${operation} names the object by ${has.join(', ') || 'nothing'}, ${get} by ${[...keys, ...(byUuid ? ['uuid'] : [])].join(', ')}`,
    };
  }
  const renames: Record<string, string> = {};
  if (verb === 'update') {
    for (const f of request) {
      const renamed = /^new([A-Z]\w*)$/.exec(f.name)?.[1];
      const key = renamed && keys.find((k) => k.toLowerCase() === renamed.toLowerCase());
      if (key) renames[f.name] = key;
    }
  }
  const sibling = (v: AxlVerb): string | undefined =>
    xsd.hasElement(`${v}${object}`) ? `${v}${object}` : undefined;
  const add = sibling('add');
  const update = sibling('update');
  const remove = sibling('remove');
  return {
    operation,
    verb,
    object,
    get,
    tag,
    keys,
    byUuid,
    ...(add ? { add } : {}),
    ...(update ? { update } : {}),
    ...(remove ? { remove } : {}),
    renames,
    aliases,
  };
}

/** `getPhoneResponse` → return → `phone`: the one element a get answers its object in. */
function answerTag(xsd: XsdModel, get: string): string | undefined {
  const ret = xsd.elementFields(`${get}Response`)?.find((f) => f.name === 'return');
  const inner = ret ? xsd.children(ret) : [];
  return inner.length === 1 ? inner[0]?.name : undefined;
}
