import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { backupStatus } from '../../../kernel/backup/status.ts';
import { backupWatchdog, type BackupRuntime } from '../../../kernel/backup/watchdog.ts';
import { configSchema, type ConfigInput } from '../../../kernel/config/schema.ts';
import type { ServerKeys } from '../../../kernel/keys/rsa-keys.ts';
import { Metrics } from '../../../kernel/metrics/metrics.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { WatchdogRunner } from '../../../kernel/watchdogs/runner.ts';
import { readAudit, startTestKernel } from '../../helpers/kernel.ts';
import { clientFiles, getStatus } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { populateState, serverKeys } from './helpers.ts';

const HOUR = 3_600_000;

function runtimeFor(dir: string, env: ConfigInput = {}): BackupRuntime & { watchdogs: WatchdogRunner } {
  const paths = statePaths(dir);
  const log = bunyan.createLogger({ name: 'test', streams: [] });
  const metrics = new Metrics();
  const keys = serverKeys();
  return {
    config: configSchema.parse({ BACKUP_RETENTION_COUNT: '3', ...env }),
    paths,
    keys: { ...keys, kid: 'test', source: 'verified' } satisfies ServerKeys,
    log,
    audit: new AuditLog({ path: paths.auditLog, maxBytes: 10_000_000, maxFiles: 2 }),
    metrics,
    lastBackup: null,
    watchdogs: new WatchdogRunner(log, metrics),
  };
}

const backups = (dir: string): string[] =>
  readdirSync(join(dir, 'backups'))
    .filter((f) => f.endsWith('.enc'))
    .sort();

describe('backup watchdog (injected clock)', () => {
  const state = tempStateDir('ucmcp-bwd-');
  after(() => state.cleanup());

  it('backs up at its first run, then only once the interval has passed; keeps the retention count', async () => {
    populateState(state.dir);
    const rt = runtimeFor(state.dir, { BACKUP_INTERVAL_HOURS: '24' });
    let now = Date.parse('2026-02-01T00:00:00Z');
    const dog = backupWatchdog(rt, { now: () => new Date(now), hostname: 'uc1' });
    assert.equal(dog.runOnStart, true);
    assert.equal(dog.intervalMs, HOUR, 'wakes hourly whatever the interval (timers overflow past 24.8 days)');
    rt.watchdogs.register(dog);

    await rt.watchdogs.runNow('backup');
    assert.deepEqual(backups(state.dir), ['backup_202602_uc1_20260201_000000.tar.gz.enc']);
    assert.deepEqual(rt.lastBackup, {
      timestamp: '2026-02-01T00:00:00.000Z',
      filename: 'backup_202602_uc1_20260201_000000.tar.gz.enc',
    });

    now += 23 * HOUR;
    await rt.watchdogs.runNow('backup');
    assert.equal(backups(state.dir).length, 1, 'not due after 23 hours');

    for (let i = 0; i < 4; i++) {
      now += 24 * HOUR;
      await rt.watchdogs.runNow('backup');
    }
    assert.deepEqual(
      backups(state.dir),
      [
        'backup_202602_uc1_20260203_230000.tar.gz.enc',
        'backup_202602_uc1_20260204_230000.tar.gz.enc',
        'backup_202602_uc1_20260205_230000.tar.gz.enc',
      ],
      'due every 24 hours after the last; BACKUP_RETENTION_COUNT=3 keeps the newest three',
    );
    const exposition = await rt.metrics.exposition();
    assert.match(exposition, /ucmcp_watchdog_status\{watchdog="backup"\} 1/);
    assert.match(exposition, /ucmcp_backup_last_success_timestamp_seconds \d{10}/);
    assert.equal(backupStatus(rt).status, 'ok');
    const created = readAudit(state.dir).filter((r) => r.status === 'BACKUP_CREATED');
    assert.equal(created.length, 5);
  });

  it('a failure is recorded (status, metric, audit), never thrown at the server, and retried an hour later', async () => {
    const rt = runtimeFor(state.dir, { BACKUP_INTERVAL_HOURS: '24' });
    let now = Date.parse('2026-04-01T00:00:00Z');
    rt.watchdogs.register(backupWatchdog(rt, { now: () => new Date(now), hostname: 'uc1' }));
    assert.equal(rt.lastBackup?.filename, backups(state.dir).at(-1), '/status knows the last backup at once');
    // backups/ replaced by a file: nothing can be written.
    rmSync(join(state.dir, 'backups'), { recursive: true });
    writeFileSync(join(state.dir, 'backups'), 'not a directory');

    const first = await rt.watchdogs.runNow('backup');
    assert.equal(first.lastOk, false);
    assert.match(first.lastError ?? '', /EEXIST|ENOTDIR/);
    assert.match(await rt.metrics.exposition(), /ucmcp_watchdog_status\{watchdog="backup"\} 0/);
    assert.equal(backupStatus(rt).status, 'failed');
    assert.equal(
      backupStatus(rt).detail,
      'see app.log and the SERVER audit records',
      'no path reaches /status',
    );
    assert.equal(readAudit(state.dir).at(-1)?.status, 'BACKUP_FAILED');

    now += 30 * 60_000;
    const waiting = await rt.watchdogs.runNow('backup');
    assert.equal(waiting.lastOk, false, 'still failed until the retry succeeds');

    rmSync(join(state.dir, 'backups'));
    mkdirSync(join(state.dir, 'backups'));
    now += 31 * 60_000;
    const retried = await rt.watchdogs.runNow('backup');
    assert.equal(retried.lastOk, true);
    assert.equal(backups(state.dir).length, 1);
    assert.equal(backupStatus(rt).status, 'ok');
  });
});

describe('backup watchdog in the running server', () => {
  it('backs up when the start is complete; /status, /metrics and the audit log show it', async () => {
    const k = await startTestKernel({ env: { AUTH_CLIENTS: 'alice:admin:cucm', AUTH_BCRYPT_COST: '4' } });
    try {
      const deadline = Date.now() + 15_000;
      while (!k.kernel.runtime.lastBackup && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const last = k.kernel.runtime.lastBackup;
      assert.ok(last, 'a backup was made at start');
      const file = join(k.stateDir, 'backups', last.filename);
      assert.ok(existsSync(file) && existsSync(`${file}.sha512`));
      const { body } = await getStatus(k, clientFiles(k.stateDir, 'alice').token);
      const b = body.backup as Record<string, unknown>;
      assert.deepEqual(b.last, last);
      assert.equal(b.status, 'ok');
      assert.equal(b.interval_hours, 168);
      const metrics = await (await k.fetch(`${k.url}/metrics`)).text();
      assert.match(metrics, /ucmcp_watchdog_status\{watchdog="backup"\} 1/);
      assert.match(metrics, /ucmcp_backup_last_size_bytes [1-9]/);
      assert.equal(k.auditRecords().find((r) => r.status === 'BACKUP_CREATED')?.file, last.filename);
      // The start's backup holds the startup token the start wrote (it waited for step 11).
      const pid = JSON.parse(readFileSync(join(k.stateDir, 'server.pid'), 'utf8')) as { pid: number };
      assert.equal(pid.pid, process.pid);
    } finally {
      await k.stop();
    }
    assert.ok(!existsSync(join(k.stateDir, 'server.pid')), 'the pid file goes at shutdown');
  });

  it('BACKUP_ENABLED=0: no backup, and /status says so', async () => {
    const k = await startTestKernel({
      env: { AUTH_CLIENTS: 'alice:admin:cucm', AUTH_BCRYPT_COST: '4', BACKUP_ENABLED: '0' },
    });
    try {
      const { body } = await getStatus(k, clientFiles(k.stateDir, 'alice').token);
      assert.equal((body.backup as Record<string, unknown>).status, 'disabled');
      assert.ok(!k.kernel.runtime.watchdogs.states().some((s) => s.name === 'backup'));
    } finally {
      await k.stop();
    }
  });
});
