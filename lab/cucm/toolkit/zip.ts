import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yazl from 'yazl';
import type { ToolkitSchema } from './generate.ts';
import { AXL_VERSION, generateToolkitSchema } from './generate.ts';

export const SCHEMA_FILES = ['AXLAPI.wsdl', 'AXLSoap.xsd', 'AXLEnums.xsd'] as const;

/**
 * The sample a real toolkit ships beside the schema. A client must take only `schema/` out of the zip and
 * never run what is here; the script makes a mistake visible rather than harmful.
 */
const SAMPLE: Record<string, string> = {
  'axlsqltoolkit/sample/README.txt':
    'Sample AXL SQL client. Not part of the schema: tools must not extract or run it.\n',
  'axlsqltoolkit/sample/src/AxlSqlToolkit.java':
    'public final class AxlSqlToolkit {\n  public static void main(String[] args) {\n    System.out.println("uc-mcp-server lab sample: nothing to run");\n  }\n}\n',
  'axlsqltoolkit/sample/run.sh':
    '#!/bin/sh\necho "uc-mcp-server lab: this sample must never be executed by a client" >&2\nexit 1\n',
};

async function schemaFiles(schemaDir: string | undefined): Promise<ToolkitSchema> {
  if (!schemaDir) return generateToolkitSchema();
  const [wsdl, soap, enums] = await Promise.all(
    SCHEMA_FILES.map((f) => readFile(join(schemaDir, f), 'utf8')),
  );
  return { 'AXLAPI.wsdl': wsdl as string, 'AXLSoap.xsd': soap as string, 'AXLEnums.xsd': enums as string };
}

/**
 * The generated schema relabelled for an older node (a 14.0 node's toolkit): its namespace, version
 * attribute and SOAPActions name that version. The real schema folder is a 15.0 one and is not used there.
 */
function relabelled(files: ToolkitSchema, version: string): ToolkitSchema {
  const swap = (text: string): string =>
    text
      .replaceAll(`/AXL/API/${AXL_VERSION}`, `/AXL/API/${version}`)
      .replaceAll(`ver=${AXL_VERSION} `, `ver=${version} `)
      .replaceAll(`version="${AXL_VERSION}"`, `version="${version}"`);
  return {
    'AXLAPI.wsdl': swap(files['AXLAPI.wsdl']),
    'AXLSoap.xsd': swap(files['AXLSoap.xsd']),
    'AXLEnums.xsd': swap(files['AXLEnums.xsd']),
  };
}

/** Builds `axlsqltoolkit.zip`: `schema/<version>/` and `schema/current/` with the three files, plus the sample. */
export async function buildToolkitZip(schemaDir?: string, version: string = AXL_VERSION): Promise<Buffer> {
  const files =
    version === AXL_VERSION
      ? await schemaFiles(schemaDir)
      : relabelled(await schemaFiles(undefined), version);
  const zip = new yazl.ZipFile();
  const mtime = new Date('2025-01-01T00:00:00Z');
  for (const folder of [version, 'current']) {
    for (const name of SCHEMA_FILES)
      zip.addBuffer(Buffer.from(files[name], 'utf8'), `schema/${folder}/${name}`, { mtime });
  }
  for (const [path, text] of Object.entries(SAMPLE)) {
    zip.addBuffer(Buffer.from(text, 'utf8'), path, {
      mtime,
      mode: path.endsWith('.sh') ? 0o100755 : 0o100644,
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
