// The local AXL schema cache that the download_axl_toolkit tools fill: `<schemaCache>/axl/<version>/`.
// A parsed schema is kept for the life of the process; concurrent loads of a version share one parse.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import type { AxlSchema, FieldDescription } from './schema.ts';
import { checkSchemaFolder, SCHEMA_FILES } from './schema-guard.ts';
import { parseWsdl } from './schema.ts';

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
    // Checked again here: a folder cached by an older release, or written by hand, gets the same scrutiny.
    const dir = this.dir(version);
    const p = checkSchemaFolder(dir).then(() => parseWsdl(join(dir, 'AXLAPI.wsdl'), version));
    this.loaded.set(version, p);
    // A failed parse is not kept: the next call may follow a fresh download.
    p.catch(() => this.loaded.delete(version));
    return p;
  }

  /** Forgets a parsed version (after a new download replaced its files). */
  forget(version: string): void {
    this.loaded.delete(version);
  }

  async operations(version: string, pattern?: string): Promise<string[]> {
    const all = (await this.load(version)).operations();
    if (!pattern) return all;
    const needle = pattern.toLowerCase();
    return all.filter((o) => o.toLowerCase().includes(needle));
  }

  async describe(version: string, operation: string, depth = 3): Promise<FieldDescription[]> {
    return (await this.load(version)).describe(operation, depth);
  }
}
