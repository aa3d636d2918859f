import type { Worker } from 'node:worker_threads';
import {
  ExportUnavailableError,
  ReportTooComplexError,
  type PluginLogger,
} from '../../../kernel/sdk/index.ts';
import type { PrintAnswer, PrinterConfig, PrintJob } from './pdf-worker.ts';
import { startWorker } from './worker-thread.ts';

const ENTRY = new URL('./pdf-worker.ts', import.meta.url);
/** Beyond the printer's own deadline, how long its thread may stay silent before it is replaced. */
const SILENCE_GRACE_MS = 15_000;
/** How long close() waits for the browser to quit before stopping the thread anyway. */
const CLOSE_WAIT_MS = 10_000;
/** REPORT_BROWSER_IDLE_SECONDS's default. */
const DEFAULT_IDLE_MS = 20_000;

interface Pending {
  resolve(pdf: Buffer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * HTML to PDF through the PDF worker thread (pdf-worker.ts), which owns Chromium. This side only moves
 * buffers: the HTML goes to the worker and the PDF comes back without being copied, so a report's size
 * costs the serving thread nothing. A worker that dies or stops answering fails its exports with
 * EXPORT_UNAVAILABLE and is started afresh for the next one.
 * The worker, and Chromium with it, is started by the first export and closed `idleMs` after the last
 * one: a browser holds a few hundred megabytes, too much to keep for exports that may never come. An
 * export arriving while that close is under way waits for it, then starts a new worker: there is never
 * more than one worker, hence one browser.
 */
export class PdfRenderer {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  /** The close of the previous worker, until its thread has exited. */
  private closing: Promise<void> | undefined;

  constructor(
    private readonly executablePath: string,
    private readonly timeoutMs: number,
    private readonly log?: PluginLogger,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {}

  /** `html` is UTF-8; its buffer is moved to the worker (unusable here afterwards) when it is its own. */
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
    const whole = html.byteOffset === 0 && html.byteLength === html.buffer.byteLength;
    const bytes = (whole ? html.buffer : html.slice().buffer) as ArrayBuffer;
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.log?.error({ timeoutMs: this.timeoutMs }, 'the PDF worker stopped answering; replacing it');
        this.stop(worker, 'the PDF renderer stopped answering; try again');
      }, this.timeoutMs + SILENCE_GRACE_MS);
      this.pending.set(id, { resolve, reject, timer });
      const job: PrintJob = { type: 'print', id, html: bytes, title };
      worker.postMessage(job, [bytes]);
    });
  }

  /**
   * Asks `worker` to close its browser and end, forgetting it at once (the next export starts another
   * once this one has exited); stopped outright if it takes over CLOSE_WAIT_MS.
   */
  private retire(worker: Worker): Promise<void> {
    if (this.worker === worker) this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' });
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    const closing = exited.finally(() => {
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

  private start(): Worker {
    if (this.worker) return this.worker;
    const config: PrinterConfig = { executablePath: this.executablePath, timeoutMs: this.timeoutMs };
    const worker = startWorker(ENTRY, config);
    // The server's life is not the worker's to extend; teardown closes it.
    worker.unref();
    worker.on('message', (a: PrintAnswer) => this.settle(a));
    worker.on('error', (err) => {
      this.log?.error({ err }, 'the PDF worker failed');
      this.stop(worker, 'the PDF renderer failed; app.log has the detail');
    });
    worker.on('exit', () => this.stop(worker, 'the PDF renderer stopped; try again'));
    this.worker = worker;
    return worker;
  }

  private settle(a: PrintAnswer): void {
    const p = this.pending.get(a.id);
    if (!p) return;
    this.pending.delete(a.id);
    clearTimeout(p.timer);
    this.armIdleClose();
    if (a.ok) {
      p.resolve(Buffer.from(a.pdf));
      return;
    }
    if (a.detail) this.log?.error({ detail: a.detail }, a.message);
    p.reject(
      a.kind === 'too-complex' ? new ReportTooComplexError(a.message) : new ExportUnavailableError(a.message),
    );
  }

  /** Fails every export in flight on `worker` and forgets it; the next export starts a new one. */
  private stop(worker: Worker, message: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new ExportUnavailableError(message));
      this.pending.delete(id);
    }
  }
}
