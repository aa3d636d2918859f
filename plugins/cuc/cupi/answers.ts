// Reading what a CUPI node answers: bodies (JSON when it is JSON, text otherwise), the node's error
// details for CUPIError, and lists in one shape. CUPI renders a list as {"@total":"N","User":[...]},
// but a single hit as an object rather than a one-element array, and no hit at all as {"@total":"0"}:
// callers should not have to know that.
import { CUPIError } from '../../../kernel/sdk/index.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Longest node message quoted in an error: enough to explain, too short to flood a tool reply. */
const MAX_MESSAGE = 300;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deepest JSON nesting returned as data; CUPI objects are two or three levels deep. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests no deeper than `max`, walked without recursion (the input is the node's). */
function depthWithin(value: JsonValue, max: number): boolean {
  const stack: [JsonValue, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return true;
}

/**
 * The body as JSON when it parses, else its text, else undefined when empty. Lenient on purpose: CUPI
 * labels its 201 body (the new object's URI as plain text) application/json, and Tomcat's own pages are
 * HTML. JSON.parse builds plain data (a "__proto__" key stays an own property), so nothing is polluted.
 * JSON nested deeper than MAX_JSON_DEPTH stays text: V8 parses any depth, but the recursive
 * serialisation of the tool reply would overflow the stack on it.
 */
export function parseBody(body: Buffer): JsonValue | string | undefined {
  const text = body.toString('utf8');
  if (text.trim() === '') return undefined;
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') {
    try {
      const value = JSON.parse(text) as JsonValue;
      return depthWithin(value, MAX_JSON_DEPTH) ? value : text;
    } catch {
      return text;
    }
  }
  return text;
}

function clean(text: string): string {
  const flat = text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x1f\x7f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}...` : flat;
}

/** The `errors` object of a CUPI error body: JSON {"errors":{code,message}} (or an array of them). */
function jsonErrors(v: JsonValue | string | undefined): { code?: string; message?: string } | undefined {
  if (!isJsonObject(v)) return undefined;
  const holder = isJsonObject(v.ErrorDetails) ? v.ErrorDetails : v;
  const errors = Array.isArray(holder.errors) ? holder.errors[0] : holder.errors;
  if (!isJsonObject(errors)) return undefined;
  const code = typeof errors.code === 'string' ? errors.code : undefined;
  const message = typeof errors.message === 'string' ? errors.message : undefined;
  return code === undefined && message === undefined ? undefined : { code, message };
}

/**
 * The node's own code and message from an error body, whichever form it took: CUPI JSON, CUPI XML
 * (<ErrorDetails><errors><code/><message/></errors></ErrorDetails>) or a Tomcat HTML page.
 */
export function nodeError(body: Buffer): { code?: string; message: string } {
  const parsed = parseBody(body);
  const fromJson = jsonErrors(parsed);
  if (fromJson) {
    return {
      ...(fromJson.code ? { code: clean(fromJson.code) } : {}),
      message: clean(fromJson.message ?? ''),
    };
  }
  const text = typeof parsed === 'string' ? parsed : '';
  const xmlMessage = /<message>([\s\S]*?)<\/message>/i.exec(text)?.[1];
  const xmlCode = /<code>([\s\S]*?)<\/code>/i.exec(text)?.[1];
  if (xmlMessage !== undefined || xmlCode !== undefined)
    return { ...(xmlCode ? { code: clean(xmlCode) } : {}), message: clean(xmlMessage ?? '') };
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
  return { message: clean((heading ?? text).replace(/<[^>]*>/g, ' ')) };
}

/**
 * CUPIError that keeps the HTTP status the node answered: a 404 on a GET says the object does not exist,
 * which a change's before-image reads as absent.
 */
export class CupiNodeError extends CUPIError {
  constructor(
    message: string,
    readonly nodeStatus: number,
  ) {
    super(message);
    this.name = 'CUPIError';
  }
}

/**
 * CUPIError for a non-2xx answer, with the node's status, code and message. A 401 says only that the
 * stored credential was refused: nothing of the credential itself is repeated.
 */
export function cupiError(
  host: string,
  method: string,
  path: string,
  status: number,
  body: Buffer,
): CUPIError {
  if (status === 401) {
    return new CUPIError(
      `CUPI authentication failed on ${host} (HTTP 401): the stored CUPI credential was refused; check it with cuc_update_credentials`,
    );
  }
  const e = nodeError(body);
  const detail = [e.code, e.message].filter((s) => s !== undefined && s !== '').join(': ');
  return new CupiNodeError(
    `CUPI ${method} ${path} on ${host} answered HTTP ${status}${detail ? ` ${detail}` : ''}`,
    status,
  );
}

export interface CupiList {
  /** `@total`: how many objects match, over every page. */
  total: number;
  /** The object element the node used (`User`, `Callhandler`), when there was one. */
  objectName?: string;
  items: JsonValue[];
}

/**
 * A CUPI list body as `{ total, items }`, whatever the resource: the one key that is not an `@`
 * attribute holds the objects, as an array (many) or an object (one); only `@total` means none.
 * Returns undefined when the body is not a list (no `@total`), e.g. a single object read by id.
 */
export function normaliseList(body: JsonValue | string | undefined): CupiList | undefined {
  if (!isJsonObject(body) || !('@total' in body)) return undefined;
  const keys = Object.keys(body).filter((k) => !k.startsWith('@'));
  // Prefer an element holding objects; CUPI sends exactly one, but a stray scalar must not win.
  const key = keys.find((k) => Array.isArray(body[k]) || isJsonObject(body[k])) ?? undefined;
  const value = key === undefined ? undefined : body[key];
  const items = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const declared = Number(body['@total']);
  return {
    total: Number.isSafeInteger(declared) && declared >= 0 ? declared : items.length,
    ...(key !== undefined ? { objectName: key } : {}),
    items,
  };
}
