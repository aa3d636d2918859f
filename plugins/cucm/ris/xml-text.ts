// RisPort70's XML text: the shared escaping and untrusted parsing (plugins/_shared/node/xml-text.ts), its
// parse failures coded RISError.
import { RISError } from '../../../kernel/sdk/index.ts';
import type { ParseOptions as SharedParseOptions, XmlNode } from '../../_shared/node/xml-text.ts';
import { parseUntrusted as parseShared } from '../../_shared/node/xml-text.ts';

export type { XmlNode } from '../../_shared/node/xml-text.ts';
export { child, decodeXmlText, escapeXml, isNode, list, text } from '../../_shared/node/xml-text.ts';

export type ParseOptions = Omit<SharedParseOptions, 'fail'>;

/** Parses a document a RisPort70 node sent; a DOCTYPE or broken XML is a RISError. */
export function parseUntrusted(text: string, what: string, o: ParseOptions): XmlNode {
  return parseShared(text, what, {
    ...o,
    fail: (message, cause) => new RISError(message, cause === undefined ? undefined : { cause }),
  });
}
