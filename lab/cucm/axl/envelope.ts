import type { XmlObject, XmlValue } from '../../xml/parse.ts';
import { isObject, localName, parseXml, stripPrefixes } from '../../xml/parse.ts';
import { SOAP_ENV } from './fault.ts';

export interface SoapRequest {
  /** Local name of the first element of the Body. */
  operation: string;
  /** Namespace URI of that element. */
  namespace: string;
  /** Its content, prefixes removed (AXL children are unqualified, but some clients qualify them). */
  body: XmlObject;
  sequence?: string;
  /** The element's text, when it has no children (a bare element such as GetOneFile's FileName). */
  text?: string;
}

export class SoapShapeError extends Error {}

function namespaces(el: XmlObject, into: Map<string, string>): void {
  for (const [key, value] of Object.entries(el)) {
    if (typeof value !== 'string') continue;
    if (key === '@xmlns') into.set('', value);
    else if (key.startsWith('@xmlns:')) into.set(key.slice(7), value);
  }
}

function onlyElement(parent: XmlObject, wanted: string): [string, XmlObject] | undefined {
  for (const [key, value] of Object.entries(parent)) {
    if (key.startsWith('@') || key === '#text') continue;
    if (localName(key) === wanted) return [key, (isObject(value) ? value : {}) as XmlObject];
  }
  return undefined;
}

/** Reads a SOAP 1.1 request: the operation element of the Body and its namespace. */
export function readSoapRequest(text: string): SoapRequest {
  const doc = parseXml(text);
  const ns = new Map<string, string>();
  const envelope = onlyElement(doc, 'Envelope');
  if (!envelope) throw new SoapShapeError('no SOAP Envelope');
  namespaces(envelope[1], ns);
  if (ns.get(envelope[0].includes(':') ? (envelope[0].split(':')[0] as string) : '') !== SOAP_ENV) {
    throw new SoapShapeError('the Envelope is not in the SOAP 1.1 namespace');
  }
  const body = onlyElement(envelope[1], 'Body');
  if (!body) throw new SoapShapeError('no SOAP Body');
  namespaces(body[1], ns);
  const first = Object.entries(body[1]).find(([k]) => !k.startsWith('@') && k !== '#text');
  if (!first) throw new SoapShapeError('empty SOAP Body');
  const [qname, raw] = first;
  const content: XmlValue = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  const element: XmlObject = isObject(content) ? content : {};
  // A bare element's text: the content itself, or its #text beside namespace declarations.
  const own = isObject(content) ? content['#text'] : content;
  const bareText = typeof own === 'string' ? own : undefined;
  namespaces(element, ns);
  const prefix = qname.includes(':') ? (qname.split(':')[0] as string) : '';
  const sequence = typeof element['@sequence'] === 'string' ? element['@sequence'] : undefined;
  return {
    operation: localName(qname),
    namespace: ns.get(prefix) ?? '',
    body: stripPrefixes(element) as XmlObject,
    ...(sequence !== undefined ? { sequence } : {}),
    ...(bareText !== undefined ? { text: bareText } : {}),
  };
}
