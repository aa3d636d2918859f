// What a backup holds: the state a restore needs, nothing more (docs/operations.md, Backups and restore).
//
//   .env                    settings (STATE_DIR/.env; an ENV_FILE elsewhere is the operator's to keep)
//   secrets/                RSA key pair, TLS pair, vault master secret, license, revocation list,
//                           IP blacklist, refresh tokens
//   clients/                per-client registration (bcrypt hash), settings, startup token, sealed credentials
//   profiles/               the operator's RBAC profiles (never profiles/_default: shipped code)
//   reports/                Markdown reports and their PDF exports
//   changes/                the change journal (every change a tool made on a node, per client)
//   logs/audit.log*         the audit trail and its rotated archives (evidence worth keeping)
//
// Left out on purpose: logs/app.log (diagnostics, large, rebuilt by the next start), schema-cache/
// (downloaded again from the nodes), backups/ (a backup never holds backups), restore_* folders, the
// server.pid file, and temporary files of writes in progress (`*.tmp`).

import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Top-level directories copied whole (minus the exclusions below). */
export const BACKUP_DIRS = ['secrets', 'clients', 'profiles', 'reports', 'changes'] as const;
export const ENV_FILE = '.env';
export const LOGS_DIR = 'logs';
export const AUDIT_LOG_PREFIX = 'audit.log';
/** Shipped default profiles live in profiles/_default when the state directory is the project root. */
export const SHIPPED_PROFILES = 'profiles/_default';

export interface ArchiveEntry {
  /** Path relative to the state directory, `/`-separated. */
  path: string;
  type: 'file' | 'dir';
  size: number;
}

export interface ArchiveSelection {
  entries: ArchiveEntry[];
  files: number;
  bytes: number;
}

/** Lists what a backup of `stateDir` holds, directories before their contents, in a stable order. */
export function selectArchiveContents(stateDir: string): ArchiveSelection {
  const entries: ArchiveEntry[] = [];
  const envStat = statIfFile(join(stateDir, ENV_FILE));
  if (envStat) entries.push({ path: ENV_FILE, type: 'file', size: envStat.size });
  for (const dir of BACKUP_DIRS) walk(stateDir, dir, entries);
  const logs = join(stateDir, LOGS_DIR);
  if (isDir(logs)) {
    const audit = readdirSync(logs)
      .filter((f) => f.startsWith(AUDIT_LOG_PREFIX) && !f.endsWith('.tmp'))
      .sort();
    const files = audit.flatMap((f) => {
      const st = statIfFile(join(logs, f));
      return st ? [{ path: `${LOGS_DIR}/${f}`, type: 'file' as const, size: st.size }] : [];
    });
    if (files.length > 0) entries.push({ path: LOGS_DIR, type: 'dir', size: 0 }, ...files);
  }
  let bytes = 0;
  let files = 0;
  for (const e of entries) {
    bytes += e.size;
    if (e.type === 'file') files++;
  }
  return { entries, files, bytes };
}

/**
 * Whether a path found in an archive may be restored: only what `selectArchiveContents` could have
 * written. A crafted archive cannot reach code, backups/ or anything outside the state directory.
 */
export function isRestorablePath(path: string, type: 'file' | 'dir'): boolean {
  if (path === ENV_FILE) return type === 'file';
  if (path === LOGS_DIR) return type === 'dir';
  if (path.startsWith(`${LOGS_DIR}/`)) {
    const rest = path.slice(LOGS_DIR.length + 1);
    return type === 'file' && !rest.includes('/') && rest.startsWith(AUDIT_LOG_PREFIX);
  }
  if (path === SHIPPED_PROFILES || path.startsWith(`${SHIPPED_PROFILES}/`)) return false;
  return BACKUP_DIRS.some((d) => path === d || path.startsWith(`${d}/`));
}

/** Depth-first, directories first; symlinks are followed to regular files only (no loops possible). */
function walk(root: string, rel: string, out: ArchiveEntry[]): void {
  const abs = join(root, rel);
  // A top-level directory may be a symlink (a mounted secrets folder); deeper ones are never followed.
  if (!isDir(abs) || rel === SHIPPED_PROFILES) return;
  out.push({ path: rel, type: 'dir', size: 0 });
  for (const name of readdirSync(abs).sort()) {
    if (name.endsWith('.tmp')) continue;
    const childRel = `${rel}/${name}`;
    const child = join(abs, name);
    let st: Stats;
    try {
      st = lstatSync(child);
    } catch {
      continue; // removed since the listing: a file deleted during a backup is simply not in it
    }
    if (st.isDirectory()) walk(root, childRel, out);
    else {
      const file = st.isFile() ? st : st.isSymbolicLink() ? statIfFile(child) : undefined;
      if (file) out.push({ path: childRel, type: 'file', size: file.size });
    }
  }
}

function statIfFile(path: string): Stats | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
