import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ReportQuotaExceededError } from '../../../kernel/sdk/index.ts';

/** What counts against a client's quota: its reports and their PDF exports (temporary files never do). */
export const QUOTA_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,124}\.(?:md|pdf)$/;

export interface QuotaLimits {
  /** REPORTS_MAX_PER_CLIENT */
  maxFiles: number;
  /** REPORTS_MAX_BYTES_PER_CLIENT */
  maxBytes: number;
}

export interface FolderUsage {
  files: number;
  bytes: number;
  /** Size of each counted file, by name. */
  sizes: Map<string, number>;
}

/** What one client's folder holds now. One stat per file: the file count is itself bounded by the quota. */
export function folderUsage(dir: string): FolderUsage {
  const sizes = new Map<string, number>();
  let bytes = 0;
  if (existsSync(dir)) {
    for (const f of readdirSync(dir)) {
      if (!QUOTA_FILE.test(f)) continue;
      const st = statSync(join(dir, f), { throwIfNoEntry: false });
      if (!st?.isFile()) continue;
      sizes.set(f, st.size);
      bytes += st.size;
    }
  }
  return { files: sizes.size, bytes, sizes };
}

/**
 * Refuses writing `bytes` to `file` when that would take the folder past a limit. A write that adds no
 * file and does not grow one always passes, so a client at its quota (or above it, after the limits were
 * lowered) can still shrink a report to make room.
 */
export function assertRoom(usage: FolderUsage, file: string, bytes: number, limits: QuotaLimits): void {
  const old = usage.sizes.get(file);
  if (old === undefined && usage.files + 1 > limits.maxFiles)
    throw new ReportQuotaExceededError(
      `you have ${usage.files} report files (reports and PDFs count alike); the limit is ${limits.maxFiles} (REPORTS_MAX_PER_CLIENT). Overwrite an existing report instead, or ask an administrator to remove some`,
    );
  const after = usage.bytes - (old ?? 0) + bytes;
  if (bytes > (old ?? 0) && after > limits.maxBytes)
    throw new ReportQuotaExceededError(
      `your reports and PDFs use ${usage.bytes} bytes and this would make ${after}; the limit is ${limits.maxBytes} (REPORTS_MAX_BYTES_PER_CLIENT). Shrink a report with overwrite, or ask an administrator to remove some`,
    );
}
