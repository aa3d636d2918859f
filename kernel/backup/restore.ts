// Restore (functional spec, Versioning 6): every check runs before anything is visible. The archive is
// checked against its sidecar, its session key unwrapped with the given private key, its GCM tag proven
// over the whole file, and only then extracted, into a hidden staging folder inside the state directory.
// A safe restore renames that folder to restore_<id>/; an in-place restore (once the server has stopped)
// renames each live item aside and the staged one into its place. Any error removes the staging folder:
// the live installation is never touched by a failed restore.

import { randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { mergeJournals } from '../changes/merge.ts';
import { fsyncDir } from '../store/atomic-file.ts';
import { AUDIT_LOG_PREFIX, BACKUP_DIRS, ENV_FILE, LOGS_DIR, SHIPPED_PROFILES } from './contents.ts';
import { openArchive, verifyArchive, type OpenedArchive } from './decrypt.ts';
import { BackupError } from './errors.ts';
import { sidecarOf } from './naming.ts';
import { extractArchive, type ExtractResult } from './safe-extract.ts';
import { verifySidecar } from './sidecar.ts';

/** Progress of one phase over `total` bytes (the CLI draws a bar). */
export type PhaseProgress = (label: string, total: number) => { tick(n: number): void; done(): void };

export interface PrepareOptions {
  file: string;
  /** Default `<file>.sha512`. */
  sidecar?: string;
  privateKey: KeyObject;
  stateDir: string;
  progress?: PhaseProgress;
  /** Owner forced on the extracted files (root restoring for the server's user). */
  owner?: { uid: number; gid: number };
}

export interface PreparedRestore {
  id: string;
  createdAt: string;
  hostname: string;
  serverVersion: string;
  /** The hidden folder holding the verified, extracted state. */
  staging: string;
  extracted: ExtractResult;
  /** Removes the staging folder (declined, or after an error). */
  discard(): void;
}

export function restoreFolder(stateDir: string, id: string): string {
  return join(stateDir, `restore_${id}`);
}

export async function prepareRestore(o: PrepareOptions): Promise<PreparedRestore> {
  const phase = (label: string, total: number) => o.progress?.(label, total);
  const size = existsSync(o.file) ? statSync(o.file).size : 0;
  if (size === 0 && !existsSync(o.file)) throw new BackupError('NOT_FOUND', `no such backup file: ${o.file}`);

  const check = phase('checking SHA-512 sidecar', size);
  await verifySidecar(o.file, { sidecar: o.sidecar ?? sidecarOf(o.file), onBytes: (n) => check?.tick(n) });
  check?.done();

  const archive: OpenedArchive = await openArchive(o.file, o.privateKey);
  try {
    const auth = phase('decrypting and authenticating', archive.ciphertextBytes);
    await verifyArchive(archive, (n) => auth?.tick(n));
    auth?.done();

    const staging = join(
      o.stateDir,
      `.restore-staging-${archive.header.meta.id}-${randomBytes(4).toString('hex')}`,
    );
    const discard = (): void => rmSync(staging, { recursive: true, force: true });
    try {
      const ex = phase('extracting', archive.ciphertextBytes);
      const extracted = await extractArchive(archive, staging, {
        onBytes: (n) => ex?.tick(n),
        ...(o.owner ? { owner: o.owner } : {}),
      });
      ex?.done();
      const m = archive.header.meta;
      return {
        id: m.id,
        createdAt: m.created_at,
        hostname: m.hostname,
        serverVersion: m.server_version,
        staging,
        extracted,
        discard,
      };
    } catch (err) {
      discard();
      throw err;
    }
  } finally {
    archive.key.fill(0);
  }
}

/** Safe restore: the staged state becomes restore_<id>/ beside the live installation, which is untouched. */
export function finishSafeRestore(p: PreparedRestore, stateDir: string): string {
  const dest = restoreFolder(stateDir, p.id);
  if (existsSync(dest)) {
    p.discard();
    throw new BackupError('EXISTS', `${dest} already exists: remove or rename it first`);
  }
  renameSync(p.staging, dest);
  fsyncDir(stateDir);
  return dest;
}

/**
 * Refuses an in-place restore that could only half succeed: every live item it would replace must be on
 * the state directory's filesystem (a mount point or a different disk cannot be renamed). Runs before
 * the server is stopped.
 */
export function checkReplaceable(p: PreparedRestore, stateDir: string): void {
  const dev = statSync(stateDir).dev;
  for (const name of [ENV_FILE, ...BACKUP_DIRS, LOGS_DIR]) {
    const live = join(stateDir, name);
    if (!existsSync(join(p.staging, name)) || !existsSync(live)) continue;
    if (lstatSync(live).isSymbolicLink() || statSync(live).dev !== dev) {
      throw new BackupError(
        'FAILED',
        `${name} is a symlink or a separate mount, so it cannot be replaced in place: restore without --replace ` +
          'and copy from restore_<id>/ by hand',
      );
    }
  }
}

export interface ReplaceSummary {
  /** Top-level items put in place (`.env`, `secrets`, ...). */
  restored: string[];
  /** Where the live items that were replaced went (undefined when there were none). */
  replacedDir: string | undefined;
  /** Audit files from the backup kept beside the live audit log instead of over it. */
  auditCopiesDir: string | undefined;
}

/**
 * In-place restore, with the server stopped. Each item the backup holds replaces its live counterpart
 * by rename (the live one moves to replaced_<time>/, kept until the operator deletes it); items the
 * backup does not hold are left as they are. profiles/_default (shipped defaults) stays. The audit log
 * is append-only and never rolled back: when a live audit.log exists, the backup's audit files go to
 * logs/restored_<id>/ beside it; on a machine that lost its logs they become logs/ again. Neither is the
 * change journal: the backup's records are merged into the live ones (changes/merge.ts).
 */
export function applyReplace(p: PreparedRestore, stateDir: string, now = new Date()): ReplaceSummary {
  const done: string[] = [];
  try {
    return swapIn(p, stateDir, now, done);
  } catch (err) {
    // Not a BackupError: the CLI must not say "nothing was changed". Say what is where instead.
    throw new Error(
      `the in-place restore failed part way (${(err as Error).message}). Already in place: ${done.join(', ') || 'nothing'}. ` +
        `The rest of the backup is in ${p.staging}; the live items it replaced are in replaced_*/ in ${stateDir}. ` +
        'Move them back by hand, or run the restore again.',
      { cause: err },
    );
  }
}

function swapIn(p: PreparedRestore, stateDir: string, now: Date, restored: string[]): ReplaceSummary {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  let replacedDir: string | undefined;
  const aside = (name: string): void => {
    const live = join(stateDir, name);
    if (!existsSync(live)) return;
    if (!replacedDir) {
      replacedDir = join(stateDir, `replaced_${stamp}`);
      for (let i = 2; existsSync(replacedDir); i++) replacedDir = join(stateDir, `replaced_${stamp}_${i}`);
      mkdirSync(replacedDir, { mode: 0o700 });
    }
    renameSync(live, join(replacedDir, name));
  };
  const staged = (name: string): string => join(p.staging, name);

  if (existsSync(staged(ENV_FILE))) {
    aside(ENV_FILE);
    renameSync(staged(ENV_FILE), join(stateDir, ENV_FILE));
    restored.push(ENV_FILE);
  }
  for (const dir of BACKUP_DIRS) {
    if (!existsSync(staged(dir))) continue;
    // The journal records changes made on the nodes, which a restore does not undo: merged, never rolled back.
    if (dir === 'changes' && existsSync(join(stateDir, dir))) {
      mergeJournals(staged(dir), join(stateDir, dir));
      restored.push(`${dir}/ (merged)`);
      continue;
    }
    if (dir === 'profiles') {
      const shipped = join(stateDir, SHIPPED_PROFILES);
      if (existsSync(shipped)) renameSync(shipped, join(p.staging, SHIPPED_PROFILES));
    }
    aside(dir);
    renameSync(staged(dir), join(stateDir, dir));
    restored.push(`${dir}/`);
  }

  let auditCopiesDir: string | undefined;
  const stagedLogs = staged(LOGS_DIR);
  if (existsSync(stagedLogs)) {
    const liveLogs = join(stateDir, LOGS_DIR);
    mkdirSync(liveLogs, { recursive: true, mode: 0o700 });
    const files = readdirSync(stagedLogs).filter((f) => f.startsWith(AUDIT_LOG_PREFIX));
    const keepLive = existsSync(join(liveLogs, 'audit.log'));
    const target = keepLive ? join(liveLogs, `restored_${p.id}`) : liveLogs;
    if (keepLive) {
      mkdirSync(target, { recursive: true, mode: 0o700 });
      auditCopiesDir = target;
    }
    for (const f of files) {
      // A rotated archive of the same name is the same archive: the live copy stays.
      if (!existsSync(join(target, f))) renameSync(join(stagedLogs, f), join(target, f));
    }
    restored.push(keepLive ? `${LOGS_DIR}/restored_${p.id}/` : `${LOGS_DIR}/${AUDIT_LOG_PREFIX}*`);
  }
  fsyncDir(stateDir);
  p.discard();
  return { restored, replacedDir, auditCopiesDir };
}
