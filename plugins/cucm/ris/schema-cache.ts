// The RisPort70 WSDL in the local schema cache (`<schemaCache>/<product>/ris/70/RISService70.wsdl`), filled
// by the download tool and read once per process: risport_query refuses to run before it is there.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import { RIS_SCHEMA_FOLDER, RIS_WSDL_FILE } from './constants.ts';
import type { RisWsdl } from './wsdl.ts';
import { readRisWsdl } from './wsdl.ts';

export class RisSchemaCache {
  #parsed: RisWsdl | undefined;

  /**
   * @param root the product's schema cache root (`<STATE>/schema-cache/cucm`)
   * @param downloadTool the tool that fills it, named in refusals
   */
  constructor(
    readonly root: string,
    readonly downloadTool: string,
  ) {}

  get folder(): string {
    return RIS_SCHEMA_FOLDER;
  }

  get file(): string {
    return join(this.root, 'ris', RIS_SCHEMA_FOLDER, RIS_WSDL_FILE);
  }

  has(): boolean {
    return existsSync(this.file);
  }

  /** The parsed WSDL; a BadRequestError naming the download tool when none is cached. */
  load(): RisWsdl {
    if (this.#parsed) return this.#parsed;
    if (!this.has()) {
      throw new BadRequestError(
        `no RisPort70 schema is in the local cache; run ${this.downloadTool} on the publisher first`,
      );
    }
    this.#parsed = readRisWsdl(readFileSync(this.file, 'utf8'), 'the schema cache');
    return this.#parsed;
  }

  /** The cached WSDL, checked to offer `operation`. */
  require(operation: string): RisWsdl {
    const wsdl = this.load();
    if (!wsdl.operations.includes(operation)) {
      throw new BadRequestError(
        `the cached RisPort70 WSDL has no operation ${operation} (it has ${wsdl.operations.join(', ')})`,
      );
    }
    return wsdl;
  }

  /** Drops the parsed copy (a new download replaced the file). */
  forget(): void {
    this.#parsed = undefined;
  }
}
