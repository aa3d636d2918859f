import type { XmlObject } from '../../xml/parse.ts';
import { isObject, parseXml, textOf } from '../../xml/parse.ts';
import { toXml } from '../../xml/write.ts';
import type { CupiObject } from './store.ts';
import { CupiError } from './store.ts';

export type Format = 'json' | 'xml';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

export function contentType(format: Format): string {
  return format === 'json' ? 'application/json' : 'application/xml';
}

/**
 * A list the way CUPI renders it: JSON `{"@total":"N","User":[...]}` where a single hit is an object,
 * not an array, and no hit at all leaves only `@total`; XML `<Users total="N">`.
 */
export function renderList(
  format: Format,
  listName: string,
  objectName: string,
  total: number,
  items: CupiObject[],
): string {
  if (format === 'json') {
    const body: Record<string, unknown> = { '@total': String(total) };
    if (items.length === 1) body[objectName] = items[0];
    else if (items.length > 1) body[objectName] = items;
    return JSON.stringify(body);
  }
  return XML_HEAD + toXml(listName, { '@total': String(total), [objectName]: items });
}

export function renderObject(format: Format, objectName: string, obj: Record<string, string>): string {
  return format === 'json' ? JSON.stringify(obj) : XML_HEAD + toXml(objectName, obj);
}

export function renderError(format: Format, code: string, message: string): string {
  return format === 'json'
    ? JSON.stringify({ errors: { code, message } })
    : XML_HEAD + toXml('ErrorDetails', { errors: { code, message } });
}

/** A request body (JSON or XML, by Content-Type) as flat text fields. */
export function parseBody(text: string, contentTypeHeader: string | undefined): CupiObject {
  if (text.trim() === '') return {};
  const json = (contentTypeHeader ?? '').toLowerCase().includes('json') || text.trim().startsWith('{');
  const out: CupiObject = {};
  if (json) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new CupiError(400, 'INVALID_PARAMETER', 'The request body is not valid JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new CupiError(400, 'INVALID_PARAMETER', 'The request body must be an object');
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v !== null && typeof v === 'object')
        throw new CupiError(400, 'INVALID_PARAMETER', `Field ${k} must be a value`);
      out[k] = String(v);
    }
    return out;
  }
  let doc: XmlObject;
  try {
    doc = parseXml(text);
  } catch (err) {
    throw new CupiError(
      400,
      'INVALID_PARAMETER',
      `The request body is not valid XML: ${(err as Error).message}`,
    );
  }
  const root = Object.entries(doc).find(([k]) => !k.startsWith('?') && !k.startsWith('@'));
  if (!root || !isObject(root[1]))
    throw new CupiError(400, 'INVALID_PARAMETER', 'The request body has no object');
  for (const [k, v] of Object.entries(root[1])) {
    if (!k.startsWith('@') && k !== '#text') out[k] = textOf(v) ?? '';
  }
  return out;
}
