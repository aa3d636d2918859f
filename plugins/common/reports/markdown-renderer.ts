import {
  ExportUnavailableError,
  ReportTooComplexError,
  type PluginLogger,
} from '../../../kernel/sdk/index.ts';
import type { Frame } from './frames.ts';
import type { RenderJob, RenderOutcome } from './markdown-worker.ts';
import { stderrGist, WorkerProcess } from './worker-process.ts';

/** How far one report's Markdown-to-HTML rendering may go. */
export interface RenderLimits {
  /** Wall time from the worker being ready to its answer. */
  timeoutMs: number;
  /** The worker's heap (V8 old generation). */
  memoryMb: number;
  /** Deepest nesting of block quotes and lists. */
  maxDepth: number;
  /** Largest HTML handed back, in UTF-8 bytes. */
  maxHtmlBytes: number;
}

const ENTRY = new URL('./markdown-worker.ts', import.meta.url);
/** How long a renderer process may take to start (load Node and the renderer) before it is given up. */
const START_LIMIT_MS = 30_000;
/** Room for a frame's head beside its body. */
const HEAD_ROOM = 65_536;
/** The largest frame a renderer takes (the Markdown is bounded long before, by REPORT_EXPORT_MAX_BYTES). */
const MAX_INPUT_BYTES = 1 << 30;
/** How long an idle renderer process is kept for the next report (REPORT_BROWSER_IDLE_SECONDS's default). */
const DEFAULT_IDLE_MS = 20_000;
/** Idle renderer processes kept at most (exports run two at a time: see shared.ts). */
const MAX_IDLE = 2;

/** One renderer process and the job it runs, if any. */
interface Renderer {
  proc: WorkerProcess;
  ready: boolean;
  job?: (f: Frame) => void;
  onReady?: () => void;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Markdown to HTML in worker processes (markdown-worker.ts) that are killed when a report overruns its
 * time or memory: the answer is the HTML as UTF-8, or REPORT_TOO_COMPLEX saying which bound the report
 * passed. A process renders one report at a time; one that finished its report cleanly waits (up to
 * `idleMs`) for the next, so an export does not pay for starting Node; one stopped at a bound, cancelled
 * or failed is killed and never serves another. The deadline runs from the moment the process is ready to
 * render: starting one is bounded on its own, and is never the report's fault.
 */
export class MarkdownRenderer {
  private readonly idle: Renderer[] = [];
  private readonly busy = new Set<Renderer>();

  constructor(
    private readonly limits: RenderLimits,
    private readonly log?: PluginLogger,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {}

  render(markdown: string, opts: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    const { signal } = opts;
    const { limits, log } = this;
    if (signal?.aborted) return Promise.reject(cancelled(signal));
    const input = Buffer.from(markdown, 'utf8');
    const r = this.take();
    return new Promise<Uint8Array>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (err: Error | null, html?: Uint8Array, reuse = false): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        r.job = undefined;
        r.onReady = undefined;
        this.busy.delete(r);
        if (reuse) this.park(r);
        else r.proc.kill();
        if (err) reject(err);
        else resolve(html as Uint8Array);
      };
      const start = (): void => {
        clearTimeout(timer);
        timer = setTimeout(
          () =>
            finish(
              new ReportTooComplexError(
                `rendering the report takes longer than ${limits.timeoutMs} ms (REPORT_RENDER_TIMEOUT_MS)`,
              ),
            ),
          limits.timeoutMs,
        );
        const job: RenderJob = {
          type: 'render',
          maxDepth: limits.maxDepth,
          maxHtmlBytes: limits.maxHtmlBytes,
        };
        r.proc.send({ ...job }, input);
      };
      r.job = (f) => {
        const outcome = f.head as RenderOutcome;
        if (outcome.ok) finish(null, f.body, true);
        // A refusal is the renderer's own clean answer: the process may serve the next report.
        else
          finish(
            new ReportTooComplexError(`the report cannot be exported: ${outcome.reason}`),
            undefined,
            true,
          );
      };
      const onAbort = (): void => finish(cancelled(signal as AbortSignal));
      signal?.addEventListener('abort', onAbort, { once: true });
      void r.proc.exited.then((exit) => {
        if (settled) return;
        if (/heap out of memory|Reached heap limit/i.test(exit.stderr)) {
          finish(
            new ReportTooComplexError(
              `rendering the report needs more than ${limits.memoryMb} MB (REPORT_RENDER_MEMORY_MB)`,
            ),
          );
          return;
        }
        log?.error(
          { code: exit.code, signal: exit.signal, stderr: stderrGist(exit.stderr) },
          'the Markdown renderer process stopped without an answer',
        );
        finish(new ExportUnavailableError('the Markdown renderer stopped without an answer'));
      });
      if (r.ready) start();
      else {
        r.onReady = start;
        timer = setTimeout(() => {
          log?.error({ startLimitMs: START_LIMIT_MS }, 'the Markdown renderer process did not start in time');
          finish(new ExportUnavailableError('the Markdown renderer did not start in time; try again'));
        }, START_LIMIT_MS);
      }
    });
  }

  /** Ends every renderer process (a render under way fails with EXPORT_UNAVAILABLE). */
  async close(): Promise<void> {
    const all = [...this.idle.splice(0), ...this.busy];
    for (const r of all) {
      clearTimeout(r.idleTimer);
      r.proc.kill();
    }
    await Promise.all(all.map((r) => r.proc.exited));
  }

  /** An idle renderer, or a new one. */
  private take(): Renderer {
    const r = this.idle.pop() ?? this.spawn();
    clearTimeout(r.idleTimer);
    this.busy.add(r);
    return r;
  }

  private spawn(): Renderer {
    const r: Renderer = { ready: false } as Renderer;
    r.proc = new WorkerProcess(
      ENTRY,
      {
        heapMb: this.limits.memoryMb,
        maxFrameBytes: this.limits.maxHtmlBytes + HEAD_ROOM,
        args: [String(MAX_INPUT_BYTES)],
      },
      (f) => {
        if (f.head.type === 'ready') {
          r.ready = true;
          r.onReady?.();
          r.onReady = undefined;
        } else r.job?.(f);
      },
      (err) => {
        this.log?.error({ err }, 'the Markdown renderer process failed');
        r.proc.kill();
      },
    );
    void r.proc.exited.then(() => {
      clearTimeout(r.idleTimer);
      const i = this.idle.indexOf(r);
      if (i >= 0) this.idle.splice(i, 1);
    });
    return r;
  }

  /** Keeps a renderer that answered cleanly for the next report, for `idleMs` at most. */
  private park(r: Renderer): void {
    if (this.idle.length >= MAX_IDLE) {
      r.proc.kill();
      return;
    }
    r.idleTimer = setTimeout(() => {
      const i = this.idle.indexOf(r);
      if (i >= 0) this.idle.splice(i, 1);
      r.proc.end();
    }, this.idleMs);
    r.idleTimer.unref();
    this.idle.push(r);
  }
}

function cancelled(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the export was cancelled');
}
