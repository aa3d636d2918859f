import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A parsed XML element: child elements by name, attributes as `@name`, text as `#text`. */
export interface XmlObject {
  [key: string]: XmlValue | undefined;
}
export type XmlValue = string | XmlObject | XmlValue[];

export class XmlSyntaxError extends Error {}

// Requests are capped well above any real AXL payload; the cap keeps a hostile body from exhausting memory.
const MAX_XML_CHARS = 16 * 1024 * 1024;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
});

/**
 * Parses untrusted XML. A DOCTYPE is refused outright (SOAP 1.1 forbids it), so no entity of any kind,
 * internal or external, is ever expanded: the lab must be as safe as the server it tests.
 */
export function parseXml(text: string): XmlObject {
  if (text.length > MAX_XML_CHARS) throw new XmlSyntaxError('request too large');
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new XmlSyntaxError('DOCTYPE is not allowed in a SOAP message');
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new XmlSyntaxError(`malformed XML: ${valid.err.msg}`);
  const parsed: unknown = parser.parse(text);
  if (parsed === null || typeof parsed !== 'object') throw new XmlSyntaxError('empty XML document');
  return parsed as XmlObject;
}

/** The local part of a possibly prefixed name. */
export function localName(name: string): string {
  const i = name.indexOf(':');
  return i === -1 ? name : name.slice(i + 1);
}

/** Removes namespace prefixes from every element name below `value` (attributes keep theirs). */
export function stripPrefixes(value: XmlValue): XmlValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(stripPrefixes);
  const out: XmlObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    if (key.startsWith('@')) {
      out[key] = child;
      continue;
    }
    const name = key === '#text' ? key : localName(key);
    const stripped = stripPrefixes(child);
    const existing = out[name];
    if (existing === undefined) out[name] = stripped;
    else out[name] = [...asArray(existing), ...asArray(stripped)];
  }
  return out;
}

export function asArray(value: XmlValue | undefined): XmlValue[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function isObject(value: XmlValue | undefined): value is XmlObject {
  return value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

/** The text content of an element (`<a>x</a>`, or `<a uuid="..">x</a>`), or undefined when absent. */
export function textOf(value: XmlValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return textOf(value[0]);
  const text = value['#text'];
  return typeof text === 'string' ? text : '';
}

/** A child element, the first one when it repeats. */
export function childOf(value: XmlValue | undefined, name: string): XmlValue | undefined {
  if (!isObject(value)) return undefined;
  const child = value[name];
  return Array.isArray(child) ? child[0] : child;
}

export function childText(value: XmlValue | undefined, name: string): string | undefined {
  return textOf(childOf(value, name));
}

export function attrOf(value: XmlValue | undefined, name: string): string | undefined {
  if (!isObject(value)) return undefined;
  const attr = value[`@${name}`];
  return typeof attr === 'string' ? attr : undefined;
}
