// Crash scenario (d): backups. The backup watchdog makes an encrypted backup at every start; the state
// holds enough incompressible report data for that to take a while, and the server is SIGKILLed at a
// random moment of it (once its temporary archive has appeared). After each kill, on the state it left:
// - every backup in backups/ matches its SHA-512 sidecar and decrypts with its GCM tag verified (a
//   backup is whole with its sidecar, or absent);
// - every backup the audit log reports complete (SERVER BACKUP_CREATED) is there and verifies;
// - partial archives of killed backups do not pile up (each one is as big as a backup).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerProcess } from '../../helpers/server-process.ts';
import { spawnServer } from '../../helpers/server-process.ts';
import {
  crashStateDir,
  freePort,
  newResult,
  rng,
  sleep,
  type ScenarioOptions,
  type ScenarioResult,
} from './harness.ts';
import { auditRecords, checkStateFiles } from './state-files.ts';

export interface BackupScenarioOptions extends ScenarioOptions {
  /** Incompressible bytes put in reports/ so that a backup takes a while (default 8 MiB). */
  bulkBytes?: number;
}

export async function backup(o: BackupScenarioOptions): Promise<ScenarioResult> {
  const result = newResult('backup', o);
  const r = rng(o.seed);
  const state = crashStateDir('ucmcp-crash-backup-');
  const reports = join(state.dir, 'reports');
  mkdirSync(reports, { recursive: true });
  const bulk = o.bulkBytes ?? 8 * 1024 * 1024;
  for (let n = 0; n < 4; n++) writeFileSync(join(reports, `bulk-${n}.bin`), randomBytes(bulk / 4));
  const backups = join(state.dir, 'backups');
  const opts = {
    stateDir: state.dir,
    port: await freePort(),
    env: { AUTH_CLIENTS: 'ops:operator:cucm', BACKUP_ENABLED: '1', BACKUP_RETENTION_COUNT: '1000' },
  };
  const verified = new Set<string>();
  let server: ServerProcess | undefined;
  try {
    // How long one backup takes here, from its temporary archive appearing: the kills are spread over that.
    server = spawnServer(opts);
    await server.ready;
    const first = server.child.pid as number;
    await until(() => writing(first) || created() > 0, 60_000);
    const t0 = performance.now();
    await until(() => created() > 0, 60_000);
    const backupMs = Math.max(50, performance.now() - t0);
    await server.stop();
    o.log?.(`one backup of ${(bulk / 1048576).toFixed(0)} MiB of state takes ${Math.round(backupMs)} ms`);

    for (let i = 1; i <= o.iterations; i++) {
      const before = created();
      server = spawnServer(opts);
      const pid = server.child.pid as number;
      // The start's backup begins (its temporary archive appears), then the kill comes at a random
      // moment of it; a start that fails by itself, or a backup that never begins, is a violation.
      const began = await Promise.race([
        untilOr(() => writing(pid) || created() > before, 60_000),
        server.exited.then(() => false),
      ]);
      if (!began) {
        result.violations.push(`cycle ${i}: the server did not start its backup: ${server.output().trim()}`);
        return result;
      }
      await sleep(r.int(0, Math.round(backupMs)));
      await server.kill();
      result.iterations++;
      // The temporary archive of the killed process is still there: the kill landed mid-backup.
      if (writing(pid)) result.killsMidOperation++;
      // The state as the kill left it, with no server running to change it under the check.
      await check(i);
      o.log?.(`cycle ${i}: killed ${result.killsMidOperation} times mid-backup so far`);
    }
    // A last start, left to finish: it starts on what the kills left, and its backup completes.
    server = spawnServer(opts);
    await server.ready;
    const before = created();
    await until(() => created() > before, 60_000);
    await server.stop();
    await check(o.iterations + 1);
    return result;
  } finally {
    await server?.kill();
    state.cleanup();
  }

  function created(): number {
    return auditRecords(state.dir).filter((a) => a.status === 'BACKUP_CREATED').length;
  }

  function writing(pid: number): boolean {
    return (
      existsSync(backups) &&
      readdirSync(backups).some((f) => f.startsWith('.backup_') && f.includes(`.${pid}.`))
    );
  }

  async function check(i: number): Promise<void> {
    const reported = auditRecords(state.dir).filter((a) => a.status === 'BACKUP_CREATED');
    const report = await checkStateFiles(state.dir, { skipBackups: verified });
    for (const p of report.problems) result.violations.push(`cycle ${i}: ${p}`);
    for (const b of report.backups) verified.add(b);
    result.leftovers = report.leftovers.length;
    for (const rec of reported) {
      const rel = `backups/${String(rec.file)}`;
      if (!existsSync(join(state.dir, rel)))
        result.violations.push(`cycle ${i}: ${rel} was reported complete but is gone`);
      else if (!verified.has(rel))
        result.violations.push(`cycle ${i}: ${rel} was reported complete but did not verify`);
    }
    result.acknowledged = reported.length;
    // Partial archives of dead processes: at most the one of the process killed last (each start removes
    // those of the dead before its own backup begins), never one per kill.
    const partial = readdirSync(backups).filter((f) => f.startsWith('.backup_') && f.endsWith('.tmp'));
    const writers = new Set(partial.map((f) => /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(f)?.[1] ?? f));
    if (writers.size > 1)
      result.violations.push(
        `cycle ${i}: partial backups of ${writers.size} killed servers pile up in backups/: ${partial.join(', ')}`,
      );
  }
}

async function until(done: () => boolean, ms: number): Promise<void> {
  if (!(await untilOr(done, ms))) throw new Error('timed out');
}

/** Polls `done` every 5 ms: true once it holds, false after `ms`. */
async function untilOr(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}
