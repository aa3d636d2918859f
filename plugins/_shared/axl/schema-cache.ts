// The local AXL schema cache that the download_axl_toolkit tools fill: `<schemaCache>/axl/<version>/`.
// A parsed schema is kept for the life of the process; concurrent loads of a version share one parse.
// After a parse, a digest of it is written beside (`axl/.digest/`, keyed by the SHA-256 of the files):
// the next process loads that instead of parsing the WSDL again, and lists operations from its index
// without loading strong-soap at all.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import type { AxlSchema, FieldDescription } from './schema.ts';
import { checkSchemaText, SCHEMA_FILES } from './schema-guard.ts';
import { parseWsdl, schemaFromDigest } from './schema.ts';
import {
  digestKeys,
  digestPath,
  encodeDigest,
  fileStamps,
  type FileStamp,
  sameStamps,
  SchemaDigest,
  schemaKey,
  writeDigest,
} from './schema-digest.ts';
import { loadSoapLibrary } from './soap-library.ts';
import { annotateFields } from './field-facts.ts';
import { XsdModel } from './xsd-model.ts';

export { SCHEMA_FILES } from './schema-guard.ts';

const VERSION = /^\d+\.\d+$/;

/** Orders `12.5` before `15.0` numerically (string order would put `9.1` last). */
export function compareVersions(a: string, b: string): number {
  const [am = 0, an = 0] = a.split('.').map(Number);
  const [bm = 0, bn = 0] = b.split('.').map(Number);
  return am - bm || an - bn;
}

export class AxlSchemaCache {
  private readonly loaded = new Map<string, Promise<AxlSchema>>();
  /** Operation names from a digest's index, for versions not (yet) loaded whole. */
  private readonly indexed = new Map<string, string[]>();
  /** Per version: what the XSD says beyond strong-soap's descriptors (required fields, enumerations). */
  private readonly xsd = new Map<string, Promise<XsdModel>>();
  /** Digests being written after a parse (bench and tests wait for them). */
  private readonly digesting = new Map<string, Promise<void>>();

  /**
   * @param schemaCache the plugin's schema cache root; schemas live in its `axl/` folder
   * @param downloadTool the tool an agent runs to fill the cache (`cucm_download_axl_toolkit`, ...)
   */
  constructor(
    readonly schemaCache: string,
    readonly downloadTool: string,
  ) {}

  dir(version: string): string {
    return join(this.schemaCache, 'axl', version);
  }

  /** Versions whose three schema files are all present, oldest first. */
  versions(): string[] {
    const root = join(this.schemaCache, 'axl');
    if (!existsSync(root)) return [];
    return readdirSync(root)
      .filter((v) => VERSION.test(v) && SCHEMA_FILES.every((f) => existsSync(join(root, v, f))))
      .sort(compareVersions);
  }

  has(version: string): boolean {
    return this.versions().includes(version);
  }

  /** The parsed schema of a version; parsed once per process. */
  load(version: string): Promise<AxlSchema> {
    const known = this.loaded.get(version);
    if (known) return known;
    if (!VERSION.test(version) || !this.has(version)) {
      const have = this.versions();
      return Promise.reject(
        new BadRequestError(
          `no AXL ${version} schema in the local cache${have.length ? ` (cached: ${have.join(', ')})` : ''}; run ${this.downloadTool} first`,
        ),
      );
    }
    const p = this.open(version);
    this.loaded.set(version, p);
    // A failed parse is not kept: the next call may follow a fresh download.
    p.catch(() => this.loaded.delete(version));
    return p;
  }

  /** Forgets a parsed version (after a new download replaced its files). */
  forget(version: string): void {
    this.loaded.delete(version);
    this.xsd.delete(version);
    this.indexed.delete(version);
  }

  /** Resolves once the digest of `version` that a parse scheduled is written (or was not needed). */
  async digested(version: string): Promise<void> {
    await this.digesting.get(version);
  }

  async operations(version: string, pattern?: string): Promise<string[]> {
    const all = this.loaded.has(version)
      ? (await this.load(version)).operations()
      : ((await this.indexedOperations(version)) ?? (await this.load(version)).operations());
    if (!pattern) return all;
    const needle = pattern.toLowerCase();
    return all.filter((o) => o.toLowerCase().includes(needle));
  }

  /** An operation's request fields to `depth`, with whether each is required and its enumeration. */
  async describe(version: string, operation: string, depth = 3): Promise<FieldDescription[]> {
    const fields = (await this.load(version)).describe(operation, depth);
    const model = await this.xsdModel(version);
    return annotateFields(fields, model.elementFields(operation) ?? [], model);
  }

  /**
   * The version's XSD read for its facts, once per process (a failed read is tried again next time):
   * what describe annotates fields with, and what a change's target and inverse are derived from.
   */
  xsdModel(version: string): Promise<XsdModel> {
    const known = this.xsd.get(version);
    if (known) return known;
    const p = Promise.all(
      ['AXLSoap.xsd', 'AXLEnums.xsd'].map((f) => readFile(join(this.dir(version), f), 'utf8')),
    ).then((texts) => new XsdModel(texts));
    this.xsd.set(version, p);
    p.catch(() => this.xsd.delete(version));
    return p;
  }

  /** The schema from its digest when one is whole and made for these files; else parsed (and digested). */
  private async open(version: string): Promise<AxlSchema> {
    const stamped = this.stampedDigest(version);
    if (stamped?.load()) return schemaFromDigest(stamped, await loadSoapLibrary());
    const { key, files } = this.keyOf(version);
    const digest = SchemaDigest.open(digestPath(this.axlRoot, version, key), key, version);
    if (digest?.load()) return schemaFromDigest(digest, await loadSoapLibrary());
    // Checked again here: a folder cached by an older release, or written by hand, gets the same scrutiny.
    for (const f of files) checkSchemaText(f.bytes.toString('utf8'), f.name);
    const schema = await parseWsdl(join(this.dir(version), 'AXLAPI.wsdl'), version);
    this.scheduleDigest(version, key, schema);
    return schema;
  }

  /** Operation names from the digest's index alone (no strong-soap); undefined without a valid digest. */
  private async indexedOperations(version: string): Promise<string[] | undefined> {
    const known = this.indexed.get(version);
    if (known) return known;
    if (!VERSION.test(version) || !this.has(version)) return undefined;
    const ops = (this.stampedDigest(version) ?? this.hashedDigest(version))?.index.operations;
    if (ops) this.indexed.set(version, ops);
    return ops;
  }

  /** The digest whose recorded stamps match the version's files as they are (no hashing), if any. */
  private stampedDigest(version: string): SchemaDigest | undefined {
    let stamps: FileStamp[];
    try {
      stamps = fileStamps(this.dir(version), SCHEMA_FILES);
    } catch {
      return undefined; // a file went missing: the load that follows says so
    }
    for (const key of digestKeys(this.axlRoot, version)) {
      const d = SchemaDigest.open(digestPath(this.axlRoot, version, key), key, version);
      if (d && sameStamps(d.stamps, stamps)) return d;
    }
    return undefined;
  }

  /** The digest made for the SHA-256 of the version's files (after a copy or restore changed stamps). */
  private hashedDigest(version: string): SchemaDigest | undefined {
    try {
      const { key } = this.keyOf(version);
      return SchemaDigest.open(digestPath(this.axlRoot, version, key), key, version);
    } catch {
      return undefined;
    }
  }

  private get axlRoot(): string {
    return join(this.schemaCache, 'axl');
  }

  /** Read at once (a few MB from the page cache): fs/promises' chunked reads took several times longer. */
  private keyOf(version: string): { key: string; files: { name: string; bytes: Buffer }[] } {
    const dir = this.dir(version);
    const files = SCHEMA_FILES.map((name) => ({ name, bytes: readFileSync(join(dir, name)) }));
    return { key: schemaKey(files), files };
  }

  /**
   * Writes the digest after the caller has its schema (describing every operation takes a while, once).
   * Written only if the files still have the key the parse was made from (no download in between).
   */
  private scheduleDigest(version: string, key: string, schema: AxlSchema): void {
    const src = schema.digestSource();
    if (!src) return;
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        // Stamped before the bytes are hashed and checked unchanged after: the stamps are those of the key.
        const stamps = fileStamps(this.dir(version), SCHEMA_FILES);
        if (this.keyOf(version).key !== key) return;
        if (!sameStamps(stamps, fileStamps(this.dir(version), SCHEMA_FILES))) return;
        const text = await encodeDigest(src, key, stamps, (await loadSoapLibrary()).descriptors);
        if (!sameStamps(stamps, fileStamps(this.dir(version), SCHEMA_FILES))) return;
        writeDigest(this.axlRoot, version, key, text);
      })
      // No digest (a descriptor it cannot carry, a full disk) is no harm: the next process parses the WSDL.
      .catch(() => undefined)
      .finally(() => {
        if (this.digesting.get(version) === done) this.digesting.delete(version);
      });
    this.digesting.set(version, done);
  }
}
