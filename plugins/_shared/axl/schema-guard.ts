// The AXL schema files come from the node (its toolkit zip) and are parsed by strong-soap, which follows
// every import and include: a relative or absolute path is read from disk, a URL is fetched. A hostile
// toolkit could so make the server read its files or reach other hosts, or carry entities. Each file is
// checked before it is cached and again before it is parsed: no DOCTYPE, and references only to the
// toolkit's own three files, by bare name.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AXLError } from '../../../kernel/sdk/index.ts';
import { hasDtd } from './untrusted-xml.ts';

/** The three files of an AXL schema folder. */
export const SCHEMA_FILES = ['AXLAPI.wsdl', 'AXLSoap.xsd', 'AXLEnums.xsd'] as const;
const NAMES: readonly string[] = SCHEMA_FILES;

/**
 * Elements that pull in another document, whatever their prefix; attribute values may hold `>`, so a
 * value is matched whole. Anything in a comment or CDATA that looks like one is checked too (stricter).
 */
const REFERENCE =
  /<(?:[^\s/>:!?]+:)?(?:import|include|redefine|override)(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const LOCATION = /(?:^|[\s:])(?:schemaLocation|location)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

/** Throws AXLError when `text` (the toolkit's `file`) is not safe to hand to the schema parser. */
export function checkSchemaText(text: string, file: string): void {
  if (hasDtd(text))
    throw new AXLError(
      `the toolkit's ${file} carries a DOCTYPE or entity declaration; refused (a schema needs none, and entities could read files or exhaust memory)`,
    );
  for (const element of text.matchAll(REFERENCE)) {
    for (const attr of (element[1] ?? '').matchAll(LOCATION)) {
      const location = attr[1] ?? attr[2] ?? '';
      if (!NAMES.includes(location))
        throw new AXLError(
          `the toolkit's ${file} refers to "${location.slice(0, 120)}", outside its own schema files (${SCHEMA_FILES.join(', ')}); refused (the schema parser would read that file or fetch that URL)`,
        );
    }
  }
}

/** Checks the three files of a schema folder. */
export async function checkSchemaFolder(dir: string): Promise<void> {
  for (const file of SCHEMA_FILES) checkSchemaText(await readFile(join(dir, file), 'utf8'), file);
}
