// The log files a caller collected from nodes, kept like their reports: one folder per client
// (`<reports>/.logs/<product>/<client>/`, a folder no client's report folder can be named, as client
// names never start with a dot), names of a plain alphabet checked before any path is built, writes
// atomic and one at a time per client with a quota (files and bytes) checked in between, and handed out
// by the kernel as `<product>log://<client>/<name>` to their owner only (resources/read, one-time
// download links), for callers who may call the product's log_collect.
import { lstatSync, readdirSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BadRequestError,
  NotFoundError,
  ReportQuotaExceededError,
  writeFileAtomicAsync,
  type OwnedFileInfo,
  type OwnedFilesDefinition,
  type Product,
} from '../../../../kernel/sdk/index.ts';

/** A kept file's name: what keptName (content.ts) makes, with the node's name in front. */
export const LOG_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export interface LogQuota {
  /** Files a client keeps per product at most. */
  maxFiles: number;
  /** Bytes a client keeps per product at most. */
  maxBytes: number;
}

/** 200 files and 512 MiB per client and product: a few troubleshooting sessions' worth of traces. */
export const DEFAULT_LOG_QUOTA: LogQuota = { maxFiles: 200, maxBytes: 512 * 1024 * 1024 };

const TEXT = /\.(txt|log|uc|out|csv|xml|trc)$|^[^.]+$|\.\d+$/i;

export function mimeOf(name: string): string {
  if (/\.zip$/i.test(name)) return 'application/zip';
  if (/\.gz$/i.test(name)) return 'application/gzip';
  return TEXT.test(name) ? 'text/plain' : 'application/octet-stream';
}

export class LogStore {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    readonly root: string,
    readonly product: Product,
    readonly quota: LogQuota = DEFAULT_LOG_QUOTA,
  ) {}

  dir(client: string): string {
    if (!LOG_NAME.test(client)) throw new BadRequestError('not a client name');
    return join(this.root, '.logs', this.product, client);
  }

  path(client: string, name: string): string {
    if (!LOG_NAME.test(name))
      throw new BadRequestError('log file names are 1-128 characters of letters, digits, ".", "_" or "-"');
    return join(this.dir(client), name);
  }

  info(client: string, name: string): OwnedFileInfo | null {
    const st = lstatSync(this.path(client, name), { throwIfNoEntry: false });
    return st?.isFile() ? { name, mimeType: mimeOf(name), size: st.size } : null;
  }

  list(client: string): (OwnedFileInfo & { mtimeMs: number })[] {
    let names: string[];
    try {
      names = readdirSync(this.dir(client));
    } catch {
      return [];
    }
    return names
      .filter((n) => LOG_NAME.test(n))
      .map((n) => ({ n, st: lstatSync(join(this.dir(client), n), { throwIfNoEntry: false }) }))
      .filter((x) => x.st?.isFile())
      .map((x) => ({ name: x.n, mimeType: mimeOf(x.n), size: x.st?.size ?? 0, mtimeMs: x.st?.mtimeMs ?? 0 }))
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
  }

  async read(client: string, name: string): Promise<Buffer> {
    try {
      return await readFile(this.path(client, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`no log file ${name}`);
      throw err;
    }
  }

  /** Writes `name` (replacing a file of that name) within the client's quota, atomically. */
  write(client: string, name: string, data: Buffer): Promise<OwnedFileInfo> {
    const p = this.path(client, name);
    const run = async (): Promise<OwnedFileInfo> => {
      const others = this.list(client).filter((f) => f.name !== name);
      const bytes = others.reduce((n, f) => n + f.size, 0) + data.length;
      if (others.length + 1 > this.quota.maxFiles || bytes > this.quota.maxBytes)
        throw new ReportQuotaExceededError(
          `keeping ${name} would make ${others.length + 1} ${this.product} log files, ${bytes} bytes; you may keep ${this.quota.maxFiles} files, ${this.quota.maxBytes} bytes (remove some from your log folder)`,
        );
      await mkdir(this.dir(client), { recursive: true, mode: 0o700 });
      await writeFileAtomicAsync(p, data, 0o600);
      return { name, mimeType: mimeOf(name), size: data.length };
    };
    // One write at a time per client: the quota is checked and the file written with nothing in between.
    const next = (this.queues.get(client) ?? Promise.resolve()).then(run, run);
    this.queues.set(
      client,
      next.catch(() => undefined),
    );
    return next;
  }
}

/** What a product plugin keeps for log_collect: its callers' log folders. */
export interface LogState {
  logs: LogStore;
}

/** The scheme a product's log files are handed out under. */
export const logScheme = (product: Product): string => `${product}log`;

/** The kernel's view of a product's kept log files (see the head of this file). */
export function logFiles<S extends { logs: LogStore }>(product: Product): OwnedFilesDefinition<S> {
  return {
    scheme: logScheme(product),
    readTool: 'log_collect',
    title: 'Your collected log files',
    description:
      'Trace and log files you collected from nodes with log_collect (text/plain, or as the node kept them).',
    stat: (client, name, shared) => shared.logs.info(client, name),
    read: (client, name, shared) => shared.logs.read(client, name),
    list: (client, shared) =>
      shared.logs.list(client).map(({ name, mimeType, size }) => ({ name, mimeType, size })),
  };
}
