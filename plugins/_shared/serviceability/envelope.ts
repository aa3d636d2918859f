// SOAP 1.1 requests of the serviceability APIs. Every value goes through escapeXml (a counter or object
// name from an agent must never become markup); elements are qualified in the API's namespace, as the
// WSDLs declare (elementFormDefault="qualified").
import { escapeXml } from '../node/xml-text.ts';

export const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';

/** A tree of request elements: text, nested elements, or a list repeating the element. */
export type SoapValue = string | number | boolean | SoapFields | SoapValue[];
export interface SoapFields {
  [name: string]: SoapValue | undefined;
}

/** `<ns:name>value</ns:name>`, nested and repeated as the value says; undefined writes nothing. */
export function element(name: string, value: SoapValue | undefined): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => element(name, v)).join('');
  if (typeof value === 'object') {
    const inner = Object.entries(value)
      .map(([k, v]) => element(k, v))
      .join('');
    return `<ns:${name}>${inner}</ns:${name}>`;
  }
  return `<ns:${name}>${escapeXml(String(value))}</ns:${name}>`;
}

/** The whole request: `operation` in `namespace`, its fields in order. */
export function soapEnvelope(namespace: string, operation: string, fields: SoapFields = {}): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:ns="${escapeXml(namespace)}"><soapenv:Body>` +
    element(operation, fields) +
    `</soapenv:Body></soapenv:Envelope>`
  );
}
