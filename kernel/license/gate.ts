import { readFile } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import type { AuditLog } from '../audit/audit-log.ts';
import { LicenseError } from '../errors/index.ts';
import type { PublisherKey } from '../integrity/publishers.ts';
import type { AppLogger } from '../logging/app-log.ts';
import type { LicenseStatus } from '../runtime.ts';
import type { Watchdog } from '../watchdogs/runner.ts';
import { inspectLicense, type LicenseEvaluation } from './evaluate.ts';
import { watchFile, type FileWatch } from './watcher.ts';

export interface LicenseGateOptions {
  /** `secrets/license.jwt` in the state directory. */
  path: string;
  /** The publisher keys to trust, asked at every evaluation (the integrity checker's current view). */
  keys: () => readonly PublisherKey[];
  audit: AuditLog;
  log: AppLogger;
  /** The kernel clock, milliseconds. */
  clock: () => number;
  /** Defaults to os.hostname(). */
  hostname?: string;
  /** LICENSE_CHECK_SECONDS: period of the watchdog's re-evaluation (expiry happens without a file event). */
  checkSeconds?: number;
  /** Quiet time after a file event before the file is read again. */
  debounceMs?: number;
}

/** `prev` is null for the first evaluation after startup. */
export type LicenseListener = (prev: LicenseStatus | null, next: LicenseStatus) => void;

const NOT_EVALUATED: LicenseStatus = {
  state: 'INVALID',
  tier: null,
  expiresAt: null,
  products: [],
  reason: 'license not evaluated yet',
};

/**
 * Startup step 8 and the license watchdog. Holds the current license status, audits each change
 * (SERVER LICENSE_STATE_CHANGE with previous, new and expiry; the first evaluation after startup is
 * recorded from UNKNOWN), tells listeners (the plugin loader) and answers the tool runner's question
 * "may this product run?".
 */
export class LicenseGate {
  private status: LicenseStatus | null = null;
  private evaluation: LicenseEvaluation | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private watch: FileWatch | null = null;
  private readonly listeners = new Set<LicenseListener>();
  private readonly host: string;

  constructor(private readonly opts: LicenseGateOptions) {
    this.host = opts.hostname ?? osHostname();
  }

  /** Reads and evaluates the license file now. Evaluations run one at a time, in call order. */
  load(): Promise<LicenseStatus> {
    const run = this.chain.then(() => this.evaluate());
    this.chain = run.catch(() => undefined);
    return run;
  }

  current(): LicenseStatus {
    return this.status ?? NOT_EVALUATED;
  }

  /** The full evaluation behind the current status (claims, signer, dates). */
  details(): LicenseEvaluation | null {
    return this.evaluation;
  }

  onChange(listener: LicenseListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Product modules run in VALID and GRACE, for the licensed products only. */
  isLicensed(product: string): boolean {
    const s = this.current();
    return (s.state === 'VALID' || s.state === 'GRACE') && s.products.includes(product);
  }

  /** The tool runner's check before a product tool runs: LicenseError (503) when it may not. */
  assertProduct(product: string): void {
    const s = this.current();
    if (s.state !== 'VALID' && s.state !== 'GRACE')
      throw new LicenseError(`the license is ${s.state}: product modules are unavailable`);
    if (!s.products.includes(product)) throw new LicenseError(`product ${product} is not licensed`);
  }

  /** Starts watching the license file (idempotent): a replaced file takes effect within about a second. */
  async watchFile(): Promise<void> {
    if (this.watch) return;
    this.watch = await watchFile(
      this.opts.path,
      () => {
        this.load().catch((err: unknown) =>
          this.opts.log.error({ err }, 'license re-evaluation after a file change failed'),
        );
      },
      {
        debounceMs: this.opts.debounceMs ?? 300,
        onError: (err) => this.opts.log.warn({ err }, 'license file watch error'),
      },
    );
  }

  async close(): Promise<void> {
    const w = this.watch;
    this.watch = null;
    await w?.close();
  }

  /**
   * The watchdog `license`: re-evaluates every LICENSE_CHECK_SECONDS (VALID -> GRACE -> EXPIRED need no
   * file event), and on its first run starts the file watch, which stops when the runner stops.
   */
  watchdog(): Watchdog {
    return {
      name: 'license',
      intervalMs: (this.opts.checkSeconds ?? 3600) * 1000,
      runOnStart: true,
      run: async (signal) => {
        if (!this.watch && !signal.aborted) {
          await this.watchFile();
          signal.addEventListener('abort', () => void this.close(), { once: true });
        }
        await this.load();
      },
    };
  }

  private async evaluate(): Promise<LicenseStatus> {
    const { text, unreadable } = await this.read();
    const evaluation = await inspectLicense(text, this.opts.keys(), this.host, this.opts.clock());
    if (unreadable) evaluation.status.reason = unreadable;
    const prev = this.status;
    const next = evaluation.status;
    // The new state applies at once, even if auditing it fails below: time passing (an expiry) cannot
    // be refused, and keeping a stale VALID would be the worse error.
    this.status = next;
    this.evaluation = evaluation;
    const stateChanged = prev === null || prev.state !== next.state;
    const termsChanged = prev !== null && !stateChanged && !sameTerms(prev, next);
    if (stateChanged || termsChanged) {
      this.opts.audit.write({
        event: 'SERVER',
        status: stateChanged ? 'LICENSE_STATE_CHANGE' : 'LICENSE_UPDATED',
        ...(next.state === 'VALID' ? {} : { severity: 'WARNING' as const }),
        previous: prev?.state ?? 'UNKNOWN',
        new: next.state,
        expiry: next.expiresAt,
        tier: next.tier,
        products: next.products,
        reason: next.reason,
      });
      const line = `license ${prev?.state ?? 'UNKNOWN'} -> ${next.state}: ${next.reason}`;
      if (next.state === 'VALID') this.opts.log.info({ license: next }, line);
      else this.opts.log.warn({ license: next }, line);
      for (const l of this.listeners) {
        try {
          l(prev, next);
        } catch (err) {
          this.opts.log.error({ err }, 'a license change listener failed');
        }
      }
    } else if (prev.reason !== next.reason && next.state === 'INVALID') {
      this.opts.log.warn({ license: next }, `license still INVALID: ${next.reason}`);
    }
    return next;
  }

  private async read(): Promise<{ text: string | null; unreadable?: string }> {
    try {
      return { text: await readFile(this.opts.path, 'utf8') };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { text: null };
      return { text: null, unreadable: `license file cannot be read (${code ?? 'error'})` };
    }
  }
}

function sameTerms(a: LicenseStatus, b: LicenseStatus): boolean {
  return (
    a.tier === b.tier &&
    a.expiresAt === b.expiresAt &&
    a.products.length === b.products.length &&
    a.products.every((p, i) => p === b.products[i])
  );
}
