// What every XML document from a managed node goes through before a parser sees it. SOAP 1.1 forbids a
// document type declaration, and a schema has no use for one: a DOCTYPE means a broken or hostile peer,
// and its entities could read local files, reach other hosts or expand without bound in a parser.

/** A DOCTYPE or an entity declaration anywhere in the text (case-insensitive, as parsers accept). */
export const DTD = /<!(DOCTYPE|ENTITY)/i;

export function hasDtd(text: string): boolean {
  return DTD.test(text);
}

/** 1 MiB → "1 MiB"; used in messages about size limits. */
export function sizeLabel(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
