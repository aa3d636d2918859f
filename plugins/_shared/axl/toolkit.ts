// Downloads the AXL SQL toolkit zip from a publisher and extracts only the schema files into the local
// cache. The zip also carries a Java sample that must never be extracted, and a hostile or broken
// node could send path traversal, symlinks or a zip bomb: every entry is checked before anything is written.
import { createWriteStream, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type yauzl from 'yauzl';
import { AXLError, BadRequestError, PayloadTooLargeError } from '../../../kernel/sdk/index.ts';
import type { AxlSchemaCache } from './schema-cache.ts';
import { SCHEMA_FILES } from './schema-cache.ts';
import { checkSchemaText } from './schema-guard.ts';
import type { NodeEndpoint, RetryPolicy } from './transport.ts';
import { DEFAULT_RETRY, httpsExchange, tlsAgent } from './transport.ts';
import { retriedExchange } from '../node/retried-exchange.ts';

export type Progress = (done: number, total: number, message: string) => void;

export interface ToolkitDownload extends NodeEndpoint {
  cache: AxlSchemaCache;
  /** The node's AXL version (e.g. `15.0`): `schema/current/` is stored under it when no folder names it. */
  nodeVersion?: string;
  /** Largest zip accepted (the real toolkit is about 10 MB). */
  maxZipBytes?: number;
  /** Largest uncompressed schema file accepted (AXLSoap.xsd 15.0 is 3.7 MB). */
  maxEntryBytes?: number;
  /** Most bytes of schema files extracted in all (the disk this download may take). */
  maxTotalBytes?: number;
  /** Most entries a zip may list (a real toolkit has a few hundred). */
  maxEntries?: number;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** The tool call's: the download ends (socket closed) when it aborts. */
  signal?: AbortSignal;
  onProgress?: Progress;
}

export interface ToolkitResult {
  /** Versions written to the cache. */
  versions: string[];
  /** Entries of the zip left alone (the sample, readmes). */
  skipped: number;
}

const MiB = 1024 * 1024;

/** Defaults of the limits: a real toolkit is about 10 MB, with some 20 schema folders of under 5 MB. */
export const TOOLKIT_LIMITS = {
  maxZipBytes: 64 * MiB,
  maxEntryBytes: 16 * MiB,
  maxTotalBytes: 128 * MiB,
  maxEntries: 10_000,
} as const;

const WANTED = /^schema\/([^/]+)\/(AXLAPI\.wsdl|AXLSoap\.xsd|AXLEnums\.xsd)$/;

export async function downloadAxlToolkit(o: ToolkitDownload): Promise<ToolkitResult> {
  const progress: Progress = o.onProgress ?? (() => undefined);
  const maxZip = o.maxZipBytes ?? TOOLKIT_LIMITS.maxZipBytes;
  const root = join(o.cache.schemaCache, 'axl');
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, '.download-'));
  const agent = tlsAgent(o);
  try {
    progress(0, 0, `downloading the AXL toolkit from ${o.host}`);
    const answer = await retriedExchange(
      o,
      o.retry ?? DEFAULT_RETRY,
      (signal) =>
        httpsExchange(o, agent, {
          service: 'axl',
          method: 'GET',
          path: '/plugins/axlsqltoolkit.zip',
          timeoutMs: o.timeoutMs ?? 120_000,
          maxBytes: maxZip,
          onData: (got, total) => progress(got, total ?? 0, 'downloading'),
          signal,
        }),
      {
        signal: o.signal,
        tooLarge: () =>
          new PayloadTooLargeError(`the toolkit from ${o.host} is larger than ${maxZip} bytes; refused`),
      },
    );
    if (answer.status === 401 || answer.status === 403)
      throw new AXLError(
        `authentication to ${o.host} failed (HTTP ${answer.status}) while downloading the toolkit`,
      );
    if (answer.status !== 200)
      throw new AXLError(`${o.host} answered HTTP ${answer.status} for the AXL toolkit`);
    // Kept on disk so yauzl can read the central directory with random access.
    const zipPath = join(work, 'toolkit.zip');
    writeFileSync(zipPath, answer.body, { mode: 0o600 });
    const out = join(work, 'out');
    const { written, skipped } = await extract(
      zipPath,
      out,
      {
        maxEntryBytes: o.maxEntryBytes ?? TOOLKIT_LIMITS.maxEntryBytes,
        // Without its own bound, the sum follows a smaller entry bound: three files for each of 16 folders.
        maxTotalBytes:
          o.maxTotalBytes ??
          Math.min(TOOLKIT_LIMITS.maxTotalBytes, (o.maxEntryBytes ?? TOOLKIT_LIMITS.maxEntryBytes) * 48),
        maxEntries: o.maxEntries ?? TOOLKIT_LIMITS.maxEntries,
      },
      progress,
    );
    // Every schema file is checked before any is cached: the whole download is refused on the first bad one.
    for (const folder of written.keys()) await checkSchemaFolderFiles(join(out, folder), written.get(folder));
    // A call cancelled during the extraction leaves the cache as it was: the work folder goes below.
    o.signal?.throwIfAborted();
    const versions = placeVersions(written, out, root, o);
    progress(1, 1, `cached AXL schema ${versions.join(', ')}`);
    return { versions, skipped };
  } finally {
    agent.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Moves complete version folders into the cache, each with one rename so a reader never sees half a schema. */
function placeVersions(
  written: Map<string, Set<string>>,
  out: string,
  root: string,
  o: ToolkitDownload,
): string[] {
  const versions: string[] = [];
  const complete = (v: string): boolean => SCHEMA_FILES.every((f) => written.get(v)?.has(f));
  for (const folder of written.keys()) {
    if (!complete(folder)) continue;
    let version = folder;
    if (folder === 'current') {
      if (!o.nodeVersion || (written.has(o.nodeVersion) && complete(o.nodeVersion))) continue;
      version = o.nodeVersion;
    }
    if (!/^\d+\.\d+$/.test(version)) continue;
    const target = join(root, version);
    const old = `${target}.old-${process.pid}`;
    rmSync(old, { recursive: true, force: true });
    try {
      renameSync(target, old);
    } catch {
      // no previous copy
    }
    renameSync(join(out, folder), target);
    rmSync(old, { recursive: true, force: true });
    o.cache.forget(version);
    versions.push(version);
  }
  if (versions.length === 0) {
    throw new AXLError(
      `the toolkit zip holds no complete schema/<version>/ folder${written.has('current') && !o.nodeVersion ? ' (only schema/current/: give the node version to store it under)' : ''}`,
    );
  }
  return versions.sort();
}

/** Refuses the whole archive on the first hostile entry: a node sending one is not to be trusted further. */
export function checkEntry(entry: yauzl.Entry, maxEntryBytes: number): void {
  const name = entry.fileName;
  if (
    name.includes('\\') ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').includes('..')
  )
    throw new BadRequestError(`the toolkit zip has an unsafe path "${name}"; refused`);
  const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
  if (mode === 0o120000) throw new BadRequestError(`the toolkit zip has a symlink "${name}"; refused`);
  if (entry.uncompressedSize > maxEntryBytes)
    throw new PayloadTooLargeError(
      `the toolkit zip entry "${name}" is ${entry.uncompressedSize} bytes, over ${maxEntryBytes}; refused`,
    );
}

/** The schema guard on the files of one extracted folder (those it holds of the three). */
async function checkSchemaFolderFiles(dir: string, files: Set<string> | undefined): Promise<void> {
  for (const file of files ?? []) checkSchemaText(await readFile(join(dir, file), 'utf8'), file);
}

interface ExtractLimits {
  maxEntryBytes: number;
  maxTotalBytes: number;
  maxEntries: number;
}

/** yauzl's own refusals of a name (`..`, absolute, backslash) say what they are. */
function zipError(err: Error): BadRequestError {
  const unsafe = /invalid relative path|absolute path|invalid characters in fileName/i.test(err.message);
  return new BadRequestError(
    unsafe
      ? `the toolkit zip has an unsafe path (${err.message}); refused`
      : `the toolkit zip is broken: ${err.message}`,
  );
}

const require = createRequire(import.meta.url);
let yauzlLibrary: typeof yauzl | undefined;

/** yauzl, loaded by the first toolkit download: the server's startup never needs it. */
function loadYauzl(): typeof yauzl {
  return (yauzlLibrary ??= require('yauzl') as typeof yauzl);
}

async function extract(
  zipPath: string,
  out: string,
  limits: ExtractLimits,
  progress: Progress,
): Promise<{ written: Map<string, Set<string>>; skipped: number }> {
  const { maxEntryBytes, maxTotalBytes: maxTotal } = limits;
  // strictFileNames makes yauzl itself reject backslashes; validateEntrySizes catches a lying header.
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    loadYauzl().open(
      zipPath,
      { lazyEntries: true, strictFileNames: true, validateEntrySizes: true },
      (err, z) =>
        err ? reject(new BadRequestError(`the toolkit is not a valid zip: ${err.message}`)) : resolve(z),
    ),
  );
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new PayloadTooLargeError(
      `the toolkit zip lists ${zip.entryCount} entries, over ${limits.maxEntries}; refused`,
    );
  }
  const written = new Map<string, Set<string>>();
  // Many schema folders of legal size could still fill the disk: the sum is capped too.
  let total = 0;
  let skipped = 0;
  let seen = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) => reject(zipError(err)));
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        seen++;
        try {
          checkEntry(entry, maxEntryBytes);
        } catch (err) {
          reject(err);
          return;
        }
        const m = WANTED.exec(entry.fileName);
        if (!m) {
          skipped++;
          zip.readEntry();
          return;
        }
        const [, folder = '', file = ''] = m;
        total += entry.uncompressedSize;
        if (total > maxTotal) {
          reject(
            new PayloadTooLargeError(`the toolkit zip's schema files exceed ${maxTotal} bytes; refused`),
          );
          return;
        }
        progress(seen, zip.entryCount, `extracting ${entry.fileName}`);
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(new BadRequestError(`cannot read ${entry.fileName}: ${err.message}`));
          mkdirSync(join(out, folder), { recursive: true });
          const sink = createWriteStream(join(out, folder, file), { mode: 0o600 });
          stream.on('error', (e) =>
            reject(new BadRequestError(`cannot read ${entry.fileName}: ${e.message}`)),
          );
          sink.on('error', reject);
          sink.on('finish', () => {
            if (!written.has(folder)) written.set(folder, new Set());
            written.get(folder)?.add(file);
            zip.readEntry();
          });
          stream.pipe(sink);
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { written, skipped };
}
