import {
  ExportUnavailableError,
  ReportTooComplexError,
  type PluginLogger,
} from '../../../kernel/sdk/index.ts';
import type { PrintAnswer, PrintJob } from './pdf-worker.ts';
import type { Frame } from './frames.ts';
import { stderrGist, WorkerProcess } from './worker-process.ts';

const ENTRY = new URL('./pdf-worker.ts', import.meta.url);
/** Beyond the printer's own deadline, how long its worker may stay silent before it is replaced. */
const SILENCE_GRACE_MS = 15_000;
/** How long close() waits for the browser to quit before killing the worker anyway. */
const CLOSE_WAIT_MS = 10_000;
/** REPORT_BROWSER_IDLE_SECONDS's default. */
const DEFAULT_IDLE_MS = 20_000;
/** The largest frame either way (the HTML is bounded long before, by the renderer's maxHtmlBytes). */
const MAX_FRAME_BYTES = 1 << 30;

interface Pending {
  resolve(pdf: Buffer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * HTML to PDF through the PDF worker process (pdf-worker.ts), which owns Chromium. This side only moves
 * bytes through a pipe, so a report's size costs the serving process next to nothing. A worker that dies
 * or stops answering fails its exports with EXPORT_UNAVAILABLE and is started afresh for the next one.
 * The worker, and Chromium with it, is started by the first export and closed `idleMs` after the last
 * one: a browser holds a few hundred megabytes, too much to keep for exports that may never come. An
 * export arriving while that close is under way waits for it, then starts a new worker: there is never
 * more than one worker, hence one browser.
 */
export class PdfRenderer {
  private worker: WorkerProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  /** The close of the previous worker, until its process has exited. */
  private closing: Promise<void> | undefined;

  constructor(
    private readonly executablePath: string,
    private readonly timeoutMs: number,
    private readonly log?: PluginLogger,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {}

  /** `html` is UTF-8; it is written to the worker as it is (not copied). */
  async render(html: Uint8Array, title: string): Promise<Buffer> {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    while (this.closing) await this.closing;
    return this.send(html, title);
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const worker = this.worker;
    if (worker) await this.retire(worker);
    else await this.closing;
  }

  private send(html: Uint8Array, title: string): Promise<Buffer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.log?.error({ timeoutMs: this.timeoutMs }, 'the PDF worker stopped answering; replacing it');
        this.stop(worker, 'the PDF renderer stopped answering; try again');
      }, this.timeoutMs + SILENCE_GRACE_MS);
      this.pending.set(id, { resolve, reject, timer });
      const job: PrintJob = { type: 'print', id, title };
      worker.send({ ...job }, html);
    });
  }

  /**
   * Asks `worker` to close its browser and end, forgetting it at once (the next export starts another
   * once this one has exited); stopped outright if it takes over CLOSE_WAIT_MS.
   */
  private retire(worker: WorkerProcess): Promise<void> {
    if (this.worker === worker) this.worker = undefined;
    worker.end();
    const timer = setTimeout(() => worker.kill(), CLOSE_WAIT_MS);
    const closing = worker.exited
      .then(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        if (this.closing === closing) this.closing = undefined;
      });
    this.closing = closing;
    return closing;
  }

  /** After the last export in flight: the worker is closed if no export starts within `idleMs`. */
  private armIdleClose(): void {
    if (this.pending.size > 0 || !this.worker) return;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.worker === worker && this.pending.size === 0) void this.retire(worker);
    }, this.idleMs);
    // A pending idle close is no reason for the process to stay up.
    this.idleTimer.unref();
  }

  private start(): WorkerProcess {
    if (this.worker) return this.worker;
    const worker: WorkerProcess = new WorkerProcess(
      ENTRY,
      {
        maxFrameBytes: MAX_FRAME_BYTES,
        args: [this.executablePath, String(this.timeoutMs), String(MAX_FRAME_BYTES)],
      },
      (f) => this.settle(f),
      (err) => {
        this.log?.error({ err }, 'the PDF worker failed');
        this.stop(worker, 'the PDF renderer failed; app.log has the detail');
      },
    );
    void worker.exited.then((exit) => {
      if (this.worker === worker && this.pending.size > 0)
        this.log?.error(
          { code: exit.code, signal: exit.signal, stderr: stderrGist(exit.stderr) },
          'the PDF worker stopped with exports in flight',
        );
      this.stop(worker, 'the PDF renderer stopped; try again');
    });
    this.worker = worker;
    return worker;
  }

  private settle(f: Frame): void {
    const a = f.head as PrintAnswer;
    const p = this.pending.get(a.id);
    if (!p) return;
    this.pending.delete(a.id);
    clearTimeout(p.timer);
    this.armIdleClose();
    if (a.ok) {
      p.resolve(f.body);
      return;
    }
    if (a.detail) this.log?.error({ detail: a.detail }, a.message);
    p.reject(
      a.kind === 'too-complex' ? new ReportTooComplexError(a.message) : new ExportUnavailableError(a.message),
    );
  }

  /** Fails every export in flight on `worker` and forgets it; the next export starts a new one. */
  private stop(worker: WorkerProcess, message: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    worker.kill();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new ExportUnavailableError(message));
      this.pending.delete(id);
    }
  }
}
