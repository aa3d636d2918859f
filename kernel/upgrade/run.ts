// The upgrade, in the spec's order (Versioning 3): verify the package signature; extract and validate the
// package manifest; check the version; make the encrypted pre-upgrade backup; apply the file changes;
// merge .env. A dry run stops after planning, having changed nothing.
import { appendFileSync, closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { verifyTree } from '../integrity/verify.ts';
import type { IntegrityStatus } from '../integrity/types.ts';
import { findRunningServer, PID_FILE } from '../backup/server-process.ts';
import { applyPlan, applySteps, type ApplyResult } from './apply.ts';
import { UpgradeRefused } from './errors.ts';
import { readInstallation } from './installation.ts';
import { openPackage } from './open-package.ts';
import { planUpgrade, type UpgradePlan } from './plan.ts';
import { toJsonLine } from '../logging/json-line.ts';

/** The runner's working folder in the installation: packages are dropped here, records are kept here. */
export const UPGRADE_DIR = 'upgrade';
export const HISTORY_FILE = 'history.jsonl';
const LOCK_FILE = '.upgrade.lock';

export interface BackupRef {
  id: string;
  file: string;
}

export interface RunUpgradeOptions {
  packageFile: string;
  /** The installation's project root. */
  root: string;
  /** Where ENV_FILE, STATE_DIR and INTEGRITY_MODE may come from (as for the server). */
  env: NodeJS.ProcessEnv;
  dryRun?: boolean;
  expectSha512?: string;
  /** Makes the encrypted pre-upgrade backup of the state directory; left out with --no-backup. */
  backup?: (stateDir: string) => Promise<BackupRef>;
  /** Asked once the plan is known, before anything changes; false stops the run there. */
  confirm?: (plan: UpgradePlan) => Promise<boolean>;
  /** A progress display for the apply phase, given the number of steps. */
  progress?: (steps: number) => { tick(): void; done(): void };
  now?: () => Date;
}

export type UpgradeOutcome =
  | { status: 'dry-run'; plan: UpgradePlan }
  | { status: 'declined'; plan: UpgradePlan }
  | {
      status: 'applied';
      plan: UpgradePlan;
      result: ApplyResult;
      backup: BackupRef | null;
      /** The integrity check of the upgraded tree (valid when it is exactly the signed release). */
      integrity: IntegrityStatus;
    };

/** Runs an upgrade; throws UpgradeRefused with the stage and an operator-facing reason when it stops. */
export async function runUpgrade(opts: RunUpgradeOptions): Promise<UpgradeOutcome> {
  const now = opts.now ?? (() => new Date());
  const inst = await readInstallation(opts.root, opts.env);
  const pkg = await openPackage(opts.packageFile, {
    keys: inst.keys,
    ...(opts.expectSha512 !== undefined ? { expectSha512: opts.expectSha512 } : {}),
  });
  const plan = await planUpgrade(pkg, inst);
  if (opts.dryRun) return { status: 'dry-run', plan };

  refuseWhileRunning(inst.stateDir);
  if (opts.confirm && !(await opts.confirm(plan))) return { status: 'declined', plan };
  // The operator may have taken a while to answer: look again before touching anything.
  refuseWhileRunning(inst.stateDir);

  const workDir = join(opts.root, UPGRADE_DIR);
  const unlock = lock(workDir);
  try {
    let backup: BackupRef | null = null;
    if (opts.backup) {
      try {
        backup = await opts.backup(inst.stateDir);
      } catch (err) {
        throw new UpgradeRefused(
          'backup',
          `the pre-upgrade backup failed, so nothing was changed: ${(err as Error).message}. Fix that, ` +
            'or run again with --no-backup to upgrade without one',
          { cause: err },
        );
      }
    }
    const at = now();
    const progress = opts.progress?.(applySteps(plan));
    const result = await applyPlan(plan, pkg, {
      rollbackDir: join(workDir, 'rollback', `${plan.from}-to-${plan.to}-${stamp(at)}`),
      now: () => at,
      ...(progress ? { onStep: () => progress.tick() } : {}),
    });
    progress?.done();
    appendFileSync(
      join(workDir, HISTORY_FILE),
      `${toJsonLine({
        at: at.toISOString(),
        from: plan.from,
        to: plan.to,
        package: plan.package.file,
        sha512: plan.package.sha512,
        signer: plan.package.signer.id,
        backup: backup?.id ?? null,
        replaced: result.replaced.length,
        created: result.created.length,
        deleted: result.deleted.length,
        env_written: result.envWritten,
        rollback: result.rollbackDir,
      })}\n`,
      { mode: 0o600 },
    );
    const { report } = await verifyTree(opts.root);
    return { status: 'applied', plan, result, backup, integrity: report.status };
  } finally {
    unlock();
  }
}

/** The spec's order of work stops the container first: a running server would mix old and new code. */
function refuseWhileRunning(stateDir: string): void {
  const server = findRunningServer(stateDir);
  if (server)
    throw new UpgradeRefused(
      'install',
      `a server is running on this installation (pid ${server.pid}, found by its ${server.via}): ` +
        `stop the container first. If no server runs, remove the stale ${join(stateDir, PID_FILE)}.`,
    );
}

/** One upgrade at a time: a second runner (a double click, a retry in another shell) is refused. */
function lock(dir: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const path = join(dir, LOCK_FILE);
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    throw new UpgradeRefused(
      'install',
      `another upgrade is in progress (${path} exists). If none is, a previous run was interrupted: check ` +
        `${join(dir, 'rollback')} for a record in state "prepared", then remove the lock file.`,
    );
  }
  writeSync(fd, `${process.pid}\n`);
  closeSync(fd);
  return () => rmSync(path, { force: true });
}

function stamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}
