import { lstatSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BadRequestError,
  NotFoundError,
  type OwnedFileInfo,
  type OwnedFilesDefinition,
} from '../../../kernel/sdk/index.ts';
import type { CommonShared } from '../shared.ts';
import { QUOTA_FILE } from './quota.ts';

const MIME: Record<string, string> = { md: 'text/markdown', pdf: 'application/pdf' };

/**
 * Each client's reports and their PDFs as `report://<client>/<name>`: the kernel serves them to their
 * owner (resources/read, one-time download links) and refuses everyone else. Only the files the quota
 * counts are files here (a plain name ending in .md or .pdf, no path, no leading dot), and only regular
 * files: a temporary file of a write in progress or anything else in the folder is never handed out.
 */
export const reportFiles: OwnedFilesDefinition<CommonShared> = {
  scheme: 'report',
  readTool: 'read_report',
  title: 'Your reports',
  description: 'Your Markdown reports (text/markdown) and their PDF exports (application/pdf).',
  stat(client, name, shared) {
    if (!QUOTA_FILE.test(name))
      throw new BadRequestError(
        'report files are 1-128 characters of letters, digits, ".", "_" or "-", ending in .md or .pdf',
      );
    return info(shared.storeFor(client).dir, name);
  },
  async read(client, name, shared) {
    if (!QUOTA_FILE.test(name)) throw new BadRequestError(`not a report file: ${name.slice(0, 128)}`);
    try {
      return await readFile(join(shared.storeFor(client).dir, name));
    } catch (err) {
      // Removed since it was looked at (an operator cleaning up): as if it had never been there.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`no report file ${name}`);
      throw err;
    }
  },
  list(client, shared) {
    const dir = shared.storeFor(client).dir;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    // The file count is bounded by the quota (REPORTS_MAX_PER_CLIENT): one stat each.
    return names
      .filter((n) => QUOTA_FILE.test(n))
      .map((n) => ({ n, st: lstatSync(join(dir, n), { throwIfNoEntry: false }) }))
      .filter((x) => x.st?.isFile())
      .sort((a, b) => (b.st?.mtimeMs ?? 0) - (a.st?.mtimeMs ?? 0))
      .map((x) => describe(x.n, x.st?.size ?? 0));
  },
};

function info(dir: string, name: string): OwnedFileInfo | null {
  const st = lstatSync(join(dir, name), { throwIfNoEntry: false });
  return st?.isFile() ? describe(name, st.size) : null;
}

function describe(name: string, size: number): OwnedFileInfo {
  return { name, mimeType: MIME[name.slice(name.lastIndexOf('.') + 1)] as string, size };
}
