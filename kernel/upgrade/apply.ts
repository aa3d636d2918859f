import { mkdirSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { UpgradeRefused } from './errors.ts';
import type { VerifiedPackage } from './open-package.ts';
import type { UpgradePlan } from './plan.ts';
import { markRecord, prepareRollback, pruneEmptyParents, rollback } from './rollback.ts';

/** What the real run did, in the plan's terms, so a test (or the operator) can hold one against the other. */
export interface ApplyResult {
  replaced: string[];
  created: string[];
  deleted: string[];
  /** Whether .env was rewritten. */
  envWritten: boolean;
  /** Where the rollback record of this upgrade is kept. */
  rollbackDir: string;
}

export interface ApplyOptions {
  rollbackDir: string;
  now?: () => Date;
  /** Called after each file and after the .env merge (for a progress bar). */
  onStep?: () => void;
}

/** The number of steps `applyPlan` reports through `onStep`. */
export function applySteps(plan: UpgradePlan): number {
  const files = plan.files.filter(
    (f) => f.action === 'replace' || f.action === 'create' || f.action === 'delete',
  );
  return files.length + (plan.env.after !== plan.env.before ? 1 : 0);
}

/**
 * Applies a plan made by `planUpgrade` from the same package: each file is written atomically (temporary
 * file, fsync, rename), so a crash leaves every file either old or new. A rollback record is written
 * first; on any failure the record is replayed and the error says whether that succeeded.
 */
export async function applyPlan(
  plan: UpgradePlan,
  pkg: VerifiedPackage,
  opts: ApplyOptions,
): Promise<ApplyResult> {
  const record = await prepareRollback(plan, opts.rollbackDir, (opts.now ?? (() => new Date()))());
  const modes = new Map(pkg.manifest.files.flatMap((f) => (f.action === 'write' ? [[f.path, f.mode]] : [])));
  const result: ApplyResult = {
    replaced: [],
    created: [],
    deleted: [],
    envWritten: false,
    rollbackDir: opts.rollbackDir,
  };
  try {
    for (const f of plan.files) {
      const target = join(plan.root, f.path);
      if (f.action === 'replace' || f.action === 'create') {
        const bytes = pkg.contents.get(f.path);
        if (!bytes) throw new Error(`${f.path} is not in the package`);
        // Folders the image build copies must stay readable by the server's user: 0755, not 0700.
        mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
        writeFileAtomic(target, bytes, modes.get(f.path) ?? 0o644);
        (f.action === 'replace' ? result.replaced : result.created).push(f.path);
      } else if (f.action === 'delete') {
        rmSync(target, { force: true });
        await pruneEmptyParents(plan.root, f.path);
        result.deleted.push(f.path);
      } else continue;
      opts.onStep?.();
    }
    if (plan.env.after !== null && plan.env.after !== plan.env.before) {
      const mode = (await stat(plan.env.file)).mode & 0o777;
      writeFileAtomic(plan.env.file, plan.env.after, mode);
      result.envWritten = true;
      opts.onStep?.();
    }
  } catch (err) {
    const failed = await rollback(opts.rollbackDir).catch(() => ['(the rollback record could not be read)']);
    const why = (err as Error).message;
    throw new UpgradeRefused(
      'apply',
      failed.length === 0
        ? `applying the upgrade failed (${why}); every change was rolled back`
        : `applying the upgrade failed (${why}) and the rollback could not restore ${failed.join(', ')}: ` +
            `restore them from ${opts.rollbackDir} or from the pre-upgrade backup`,
      { cause: err },
    );
  }
  markRecord(opts.rollbackDir, record, 'applied');
  return result;
}
