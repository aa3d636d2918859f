// The rollback record: before the first change, a copy of every file the upgrade will replace or delete,
// of the .env it will rewrite, and the list of files it will create. Written whole before anything is
// touched, so whatever point a failure (or a crash) stops at, replaying the record restores the
// installation: restoring a file not yet changed is harmless, removing a created file that was never
// written is a no-op.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { readFile, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readOptional } from '../integrity/tree.ts';
import { writeFileAtomic, writeJsonAtomic } from '../store/atomic-file.ts';
import { UpgradeRefused } from './errors.ts';
import type { UpgradePlan } from './plan.ts';

export const RECORD_FILE = 'record.json';
const SAVED_DIR = 'files';
const SAVED_ENV = 'env.orig';

export interface RollbackRecord {
  format: 1;
  from: string;
  to: string;
  root: string;
  created_at: string;
  /** prepared: nothing or part applied; applied: the upgrade completed; rolled-back: undone. */
  state: 'prepared' | 'applied' | 'rolled-back';
  /** Files saved under files/<path>, with their mode, to be written back. */
  saved: { path: string; mode: number }[];
  /** Files that did not exist before: removed on rollback. */
  created: string[];
  env: { file: string; mode: number } | null;
}

/**
 * Saves what the plan will change into `dir`. Each saved file must still be the one the plan saw: a file
 * changed since planning means someone else is at work in the tree, and the upgrade stops.
 */
export async function prepareRollback(plan: UpgradePlan, dir: string, now: Date): Promise<RollbackRecord> {
  mkdirSync(join(dir, SAVED_DIR), { recursive: true, mode: 0o700 });
  const saved: RollbackRecord['saved'] = [];
  for (const f of plan.files) {
    if (f.action !== 'replace' && f.action !== 'delete') continue;
    const abs = join(plan.root, f.path);
    const bytes = await readFile(abs);
    if (createHash('sha512').update(bytes).digest('hex') !== f.installed)
      throw new UpgradeRefused(
        'apply',
        `${f.path} changed since the upgrade was planned; nothing was changed`,
      );
    // 0600: a saved file may be a setting or key file, whatever its mode in the tree.
    writeFileAtomic(join(dir, SAVED_DIR, f.path), bytes, 0o600);
    saved.push({ path: f.path, mode: (await stat(abs)).mode & 0o777 });
  }
  let env: RollbackRecord['env'] = null;
  if (plan.env.exists && plan.env.after !== plan.env.before) {
    const current = (await readOptional(plan.env.file))?.toString('utf8') ?? null;
    if (current !== plan.env.before)
      throw new UpgradeRefused(
        'apply',
        `${plan.env.file} changed since the upgrade was planned; nothing was changed`,
      );
    writeFileAtomic(join(dir, SAVED_ENV), current ?? '', 0o600);
    env = { file: plan.env.file, mode: (await stat(plan.env.file)).mode & 0o777 };
  }
  const record: RollbackRecord = {
    format: 1,
    from: plan.from,
    to: plan.to,
    root: plan.root,
    created_at: now.toISOString(),
    state: 'prepared',
    saved,
    created: plan.files.filter((f) => f.action === 'create').map((f) => f.path),
    env,
  };
  writeJsonAtomic(join(dir, RECORD_FILE), record, 0o600);
  return record;
}

export function markRecord(dir: string, record: RollbackRecord, state: RollbackRecord['state']): void {
  record.state = state;
  writeJsonAtomic(join(dir, RECORD_FILE), record, 0o600);
}

/** Replays the record in `dir`. Returns the paths it could not restore (empty when all went well). */
export async function rollback(dir: string): Promise<string[]> {
  const record = JSON.parse(await readFile(join(dir, RECORD_FILE), 'utf8')) as RollbackRecord;
  const failed: string[] = [];
  for (const path of record.created) {
    try {
      rmSync(join(record.root, path), { force: true });
      await pruneEmptyParents(record.root, path);
    } catch {
      failed.push(path);
    }
  }
  for (const f of record.saved) {
    try {
      const target = join(record.root, f.path);
      mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
      writeFileAtomic(target, await readFile(join(dir, SAVED_DIR, f.path)), f.mode);
    } catch {
      failed.push(f.path);
    }
  }
  if (record.env) {
    try {
      writeFileAtomic(record.env.file, await readFile(join(dir, SAVED_ENV)), record.env.mode);
    } catch {
      failed.push(record.env.file);
    }
  }
  if (failed.length === 0) markRecord(dir, record, 'rolled-back');
  return failed;
}

/** Removes the folders above `path` that the change left empty, never the root itself. */
export async function pruneEmptyParents(root: string, path: string): Promise<void> {
  const parts = path.split('/').slice(0, -1);
  while (parts.length > 0) {
    try {
      await rmdir(join(root, ...parts));
    } catch {
      return; // not empty (or already gone): everything above it stays too
    }
    parts.pop();
  }
}
