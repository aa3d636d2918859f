// Hostile AXL toolkit zips: the lab's complete 15.0 schema plus one attack, placed last so a client
// that extracts as it reads has already written the good files when it meets the bad entry.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeflateRaw } from 'node:zlib';
import type { ToolkitSchema } from '../cucm/toolkit/generate.ts';
import { generateToolkitSchema } from '../cucm/toolkit/generate.ts';
import type { ToolkitAttack, XmlAttack } from './switches.ts';
import { withDoctype } from './xml.ts';
import type { ZipEntry } from './zip-writer.ts';
import { writeZip } from './zip-writer.ts';

const FILES = ['AXLAPI.wsdl', 'AXLSoap.xsd', 'AXLEnums.xsd'] as const;
const MiB = 1024 * 1024;
/** What the zip bombs inflate to. */
export const BOMB_BYTES = 256 * MiB;
export const MANY_ENTRIES = 65_000;

/** Where the path attacks aim: a file in the temporary folder that must never appear. */
export function canaryPath(): string {
  return join(tmpdir(), `uc-mcp-hostile-canary-${process.pid}.txt`);
}

let schema: ToolkitSchema | undefined;
let bomb: Promise<Buffer> | undefined;

/** BOMB_BYTES of zeros deflated (about 250 KB), built by streaming: the lab never holds the zeros. */
function deflatedZeros(): Promise<Buffer> {
  bomb ??= new Promise<Buffer>((resolve, reject) => {
    const deflate = createDeflateRaw({ level: 9 });
    const out: Buffer[] = [];
    deflate.on('data', (c: Buffer) => out.push(c));
    deflate.on('end', () => resolve(Buffer.concat(out)));
    deflate.on('error', reject);
    const zeros = Buffer.alloc(MiB);
    let left = BOMB_BYTES / MiB;
    const pump = (): void => {
      while (left > 0) {
        left--;
        if (!deflate.write(zeros)) return void deflate.once('drain', pump);
      }
      deflate.end();
    };
    pump();
  });
  return bomb;
}

export async function hostileToolkit(attack: ToolkitAttack, xml: XmlAttack, target: string): Promise<Buffer> {
  schema ??= generateToolkitSchema();
  const files: Record<string, string> = { ...schema };
  const extra: ZipEntry[] = [];
  const escape = `${'../'.repeat(16)}${canaryPath().replace(/^\/+/, '')}`;
  const canary = Buffer.from(
    'written by a hostile toolkit zip: the client extracted a path it must refuse\n',
  );
  let replace: ZipEntry | undefined;
  switch (attack) {
    case 'traversal':
      extra.push({ name: escape, data: canary });
      break;
    case 'absolute-path':
      extra.push({ name: canaryPath(), data: canary });
      break;
    case 'backslash-path':
      extra.push({ name: escape.replace(/\//g, '\\'), data: canary });
      break;
    case 'symlink':
      replace = { name: 'schema/15.0/AXLEnums.xsd', data: Buffer.from('/etc/passwd'), mode: 0o120777 };
      break;
    case 'bomb-declared':
      replace = { name: 'schema/15.0/AXLEnums.xsd', raw: await deflatedZeros(), declaredSize: BOMB_BYTES };
      break;
    case 'bomb-lying':
      replace = { name: 'schema/15.0/AXLEnums.xsd', raw: await deflatedZeros(), declaredSize: 1000 };
      break;
    case 'many-entries':
      for (let i = 0; i < MANY_ENTRIES; i++) extra.push({ name: `axlsqltoolkit/sample/n/${i}` });
      break;
    case 'schema-doctype':
      files['AXLSoap.xsd'] = withDoctype(files['AXLSoap.xsd'] ?? '', xml, 'xsd:schema', target);
      break;
    case 'schema-import':
      files['AXLSoap.xsd'] = (files['AXLSoap.xsd'] ?? '').replace(
        'schemaLocation="AXLEnums.xsd"',
        `schemaLocation="${target.replace(/"/g, '%22')}"`,
      );
      break;
  }
  const entries: ZipEntry[] = FILES.filter((f) => replace?.name !== `schema/15.0/${f}`).map((f) => ({
    name: `schema/15.0/${f}`,
    data: Buffer.from(files[f] ?? '', 'utf8'),
  }));
  return writeZip([...entries, ...(replace ? [replace] : []), ...extra]);
}
