// XML text in both directions for the SOAP APIs of a node that are not AXL (RisPort70, the serviceability
// APIs): every value written is escaped (a hostile argument must never become markup), and every document
// read comes from the network and is parsed without entities.
import { XMLParser } from 'fast-xml-parser';
import { BadRequestError } from '../../../kernel/sdk/index.ts';

/** Characters XML 1.0 cannot carry even escaped (controls, lone surrogates): refused, never dropped silently. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A raw CR would be normalised to LF by the node's parser; the reference keeps the value as given.
  '\r': '&#13;',
};

export function escapeXml(value: string): string {
  if (NOT_XML.test(value))
    throw new BadRequestError('a value holds a control character that XML cannot carry');
  return value.replace(/[&<>"'\r]/g, (c) => ESCAPES[c] ?? c);
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Decodes the five predefined entities and character references, and nothing else: the parser runs with
 * entity processing off, so no declared entity can expand (no "billion laughs", no external fetch).
 */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/g, (whole, ref: string) => {
    const named = NAMED[ref];
    if (named !== undefined) return named;
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

export type XmlNode = Record<string, unknown>;

export interface ParseOptions {
  /** Element names that are always arrays (`item` in answers; `operation` in a WSDL). */
  arrays: ReadonlySet<string>;
  /** Keep attributes, prefixed `@` (the WSDL needs them; answers do not). */
  attributes?: boolean;
  /** The coded error of the API that read it (RISError, ServiceabilityError). */
  fail: (message: string, cause?: unknown) => Error;
}

/**
 * Parses a document a node sent. A DOCTYPE is refused outright: SOAP forbids it and a WSDL has no use for
 * one, so its presence means a broken or hostile peer. Namespace prefixes are dropped (nodes differ in them).
 */
export function parseUntrusted(text: string, what: string, o: ParseOptions): XmlNode {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw o.fail(`${what} carries a DOCTYPE; refused`);
  const parser = new XMLParser({
    removeNSPrefix: true,
    ignoreAttributes: !o.attributes,
    attributeNamePrefix: '@',
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // Callbacks get the bare tag name; building a path string for every tag doubled the parse time.
    jPath: false,
    isArray: (name) => o.arrays.has(name),
    tagValueProcessor: (_name, value) => decodeXmlText(value),
    attributeValueProcessor: (_name, value) => decodeXmlText(value),
  });
  try {
    const doc: unknown = parser.parse(text, true);
    if (!isNode(doc)) throw new Error('no root element');
    return doc;
  } catch (err) {
    throw o.fail(`${what} is not well-formed XML (${(err as Error).message})`, err);
  }
}

export function isNode(v: unknown): v is XmlNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A child element as an object; a text-only or empty element gives an empty object. */
export function child(parent: unknown, name: string): XmlNode | undefined {
  if (!isNode(parent)) return undefined;
  const v = parent[name];
  if (Array.isArray(v)) return isNode(v[0]) ? v[0] : {};
  if (v === undefined) return undefined;
  return isNode(v) ? v : {};
}

/** A child's text; an element with children or attributes only gives its `#text` or undefined. */
export function text(parent: unknown, name: string): string | undefined {
  if (!isNode(parent)) return undefined;
  const v = parent[name];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isNode(v) && typeof v['#text'] === 'string') return v['#text'];
  return undefined;
}

export function list(v: unknown): XmlNode[] {
  const items = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return items.filter(isNode);
}
