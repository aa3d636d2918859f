import { resolve } from 'node:path';
import type { AuditLog } from '../audit/audit-log.ts';
import { IntegrityError } from '../errors/index.ts';
import type { AppLogger } from '../logging/app-log.ts';
import type { Watchdog } from '../watchdogs/runner.ts';
import type { PublisherKey } from './publishers.ts';
import { PLUGINS_DIR } from './tree.ts';
import { usableKeys, type TrustRoot } from './trust.ts';
import type { IntegrityMode, IntegrityReport } from './types.ts';
import { bundleLoadable, verifyTree } from './verify.ts';

export interface IntegrityCheckerOptions {
  /** The tree to verify: the project root in production, a throw-away tree in tests and the demo. */
  root: string;
  mode: IntegrityMode;
  audit: AuditLog;
  log: AppLogger;
  /** INTEGRITY_CHECK_HOURS: period of the watchdog (the spec's 24 hours by default). */
  intervalHours?: number;
  clock?: () => number;
}

/**
 * An audit line holds at most this many findings (each about 300 bytes); app.log always gets all of
 * them. A whole tree rewritten must not produce a multi-megabyte audit record.
 */
export const AUDIT_MAX_FILES = 500;

/**
 * Startup step 4, the 24-hour watchdog and the on-demand check share this object. Every check writes
 * its result to audit.log (INTEGRITY_PASS, or INTEGRITY_FAIL with severity CRITICAL) and app.log (fatal
 * on failure, listing each affected file with both hashes). The server keeps running whatever it finds.
 */
export class IntegrityChecker {
  private lastReport: IntegrityReport | null = null;
  private lastTrust: TrustRoot | null = null;
  private running: Promise<IntegrityReport> | null = null;
  private readonly listeners = new Set<(report: IntegrityReport) => void>();

  constructor(private readonly opts: IntegrityCheckerOptions) {}

  get mode(): IntegrityMode {
    return this.opts.mode;
  }

  /** Runs a check now; calls made while one runs share its result. */
  check(): Promise<IntegrityReport> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  last(): IntegrityReport | null {
    return this.lastReport;
  }

  /** Called after every check (the loader may react to a bundle that turned bad). */
  onReport(listener: (report: IntegrityReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the loader may register this bundle, by the last report and the mode. False before any check. */
  bundleLoadable(id: string): boolean {
    return this.lastReport !== null && bundleLoadable(this.lastReport, id, this.opts.mode);
  }

  /**
   * The plugin loader's gate for one bundle folder: may its code run? A folder outside `<root>/plugins/`
   * (a test fixture directory) was never verified, so only `warn` mode lets it through.
   */
  bundleVerdict(id: string, folder?: string): { ok: true } | { ok: false; reason: string } {
    const { mode, root } = this.opts;
    if (mode === 'warn') return { ok: true };
    if (folder !== undefined && resolve(folder) !== resolve(root, PLUGINS_DIR, id))
      return {
        ok: false,
        reason: `integrity: ${folder} is outside the verified tree (INTEGRITY_MODE=enforce)`,
      };
    if (!this.lastReport) return { ok: false, reason: 'integrity: not checked yet' };
    const b = this.lastReport.bundles[id];
    if (b?.status === 'valid') return { ok: true };
    return {
      ok: false,
      reason: `integrity ${b?.status ?? 'unsigned'}: ${b?.reason ?? 'not seen by the check'} (INTEGRITY_MODE=enforce)`,
    };
  }

  /** Publisher keys the license gate may trust, as of the last check (none before it). */
  trustedPublisherKeys(): PublisherKey[] {
    return this.lastTrust ? usableKeys(this.lastTrust, this.opts.mode) : [];
  }

  /** The periodic check (name `integrity`). A run that finds anything but valid fails, so the metric shows it. */
  watchdog(): Watchdog {
    return {
      name: 'integrity',
      intervalMs: (this.opts.intervalHours ?? 24) * 3_600_000,
      runOnStart: false,
      run: async () => {
        const report = await this.check();
        if (report.status !== 'valid')
          throw new IntegrityError(`integrity check: ${report.status} (${report.reason ?? ''})`);
      },
    };
  }

  private async run(): Promise<IntegrityReport> {
    const { report, trust } = await verifyTree(this.opts.root, {
      ...(this.opts.clock ? { clock: this.opts.clock } : {}),
    });
    this.lastReport = report;
    this.lastTrust = trust;
    this.record(report, trust);
    for (const l of this.listeners) l(report);
    return report;
  }

  private record(report: IntegrityReport, trust: TrustRoot): void {
    const { audit, log, mode } = this.opts;
    const bundles = Object.fromEntries(Object.values(report.bundles).map((b) => [b.id, b.status]));
    if (report.status === 'valid') {
      audit.write({
        event: 'SERVER',
        status: 'INTEGRITY_PASS',
        files_checked: report.filesChecked,
        publisher: report.publisher,
        bundles,
      });
      log.info(
        { integrity: { status: report.status, filesChecked: report.filesChecked, ms: report.durationMs } },
        `integrity check passed: ${report.filesChecked} files, publisher ${report.publisher ?? '?'}`,
      );
      return;
    }
    const files = report.files.map(({ path, state, expected, actual, bundle }) => ({
      path,
      state,
      expected: expected ?? null,
      actual: actual ?? null,
      ...(bundle ? { bundle } : {}),
    }));
    audit.write({
      event: 'SERVER',
      status: 'INTEGRITY_FAIL',
      severity: 'CRITICAL',
      integrity_status: report.status,
      reason: report.reason,
      publisher: report.publisher,
      mode,
      files: files.slice(0, AUDIT_MAX_FILES),
      files_total: files.length,
      bundles,
    });
    log.fatal(
      {
        severity: 'CRITICAL',
        integrity: {
          status: report.status,
          reason: report.reason,
          publisher: report.publisher,
          mode,
          files,
          bundles,
          keyProblems: trust.keyProblems,
        },
      },
      `INTEGRITY CHECK FAILED: ${report.status}${report.reason ? ` (${report.reason})` : ''}; ` +
        `${files.length} affected file(s): ` +
        files
          .slice(0, 20)
          .map((f) => `${f.path} ${f.state} expected=${f.expected ?? '-'} actual=${f.actual ?? '-'}`)
          .join('; '),
    );
    for (const b of Object.values(report.bundles)) {
      if (b.status === 'valid') continue;
      const consequence =
        mode === 'enforce' ? 'it will not be loaded' : 'loaded anyway because INTEGRITY_MODE=warn';
      log.error(
        { bundle: b.id, integrity: { status: b.status, reason: b.reason, publisher: b.publisher } },
        `plugin bundle ${b.id} is ${b.status} (${b.reason ?? ''}): ${consequence}`,
      );
    }
  }
}
