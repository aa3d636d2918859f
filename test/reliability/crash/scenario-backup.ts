// Crash scenario (d): backups. The backup watchdog makes an encrypted backup at every start; the state
// holds enough incompressible report data for that to take a while, and the server is SIGKILLed at a
// random moment of it. After each restart:
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
    // How long one backup takes here: the kills are spread over that.
    server = spawnServer(opts);
    await server.ready;
    const t0 = performance.now();
    await until(() => auditRecords(state.dir).some((a) => a.status === 'BACKUP_CREATED'), 60_000);
    const backupMs = performance.now() - t0;
    await server.stop();
    o.log?.(`one backup of ${(bulk / 1048576).toFixed(0)} MiB of state takes ${Math.round(backupMs)} ms`);

    for (let i = 1; i <= o.iterations; i++) {
      server = spawnServer(opts);
      try {
        await server.ready;
      } catch (err) {
        result.violations.push(`cycle ${i}: the server did not start again: ${(err as Error).message}`);
        return result;
      }
      result.startupMs.push(Math.round(performance.now() - server.spawnedAt));
      await check(i);
      await sleep(r.int(0, Math.round(backupMs * 1.3)));
      const pid = server.child.pid;
      await server.kill();
      result.iterations++;
      // A temporary archive of the killed process: the kill landed while it was writing a backup.
      if (readdirSync(backups).some((f) => f.startsWith('.backup_') && f.includes(`.${pid}.`)))
        result.killsMidOperation++;
      o.log?.(`cycle ${i}: killed ${result.killsMidOperation} times mid-backup so far`);
    }
    server = spawnServer(opts);
    await server.ready;
    await until(
      () => auditRecords(state.dir).filter((a) => a.status === 'BACKUP_CREATED').length > verified.size,
      60_000,
    );
    await server.stop();
    await check(o.iterations + 1);
    return result;
  } finally {
    await server?.kill();
    state.cleanup();
  }

  async function check(i: number): Promise<void> {
    const report = await checkStateFiles(state.dir, { skipBackups: verified });
    for (const p of report.problems) result.violations.push(`cycle ${i}: ${p}`);
    for (const b of report.backups) verified.add(b);
    result.leftovers = report.leftovers.length;
    for (const rec of auditRecords(state.dir).filter((a) => a.status === 'BACKUP_CREATED')) {
      const rel = `backups/${String(rec.file)}`;
      if (!existsSync(join(state.dir, rel)))
        result.violations.push(`cycle ${i}: ${rel} was reported complete but is gone`);
      else if (!verified.has(rel))
        result.violations.push(`cycle ${i}: ${rel} was reported complete but did not verify`);
    }
    result.acknowledged = auditRecords(state.dir).filter((a) => a.status === 'BACKUP_CREATED').length;
    // Partial archives of dead processes: at most the one of the process killed last (this start's own
    // backup removes it once it runs), never one per kill.
    const partial = readdirSync(backups).filter((f) => f.startsWith('.backup_') && f.endsWith('.tmp'));
    if (partial.length > 2)
      result.violations.push(`cycle ${i}: ${partial.length} partial backup archives pile up in backups/`);
  }
}

async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}
