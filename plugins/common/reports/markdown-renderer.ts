import {
  ExportUnavailableError,
  ReportTooComplexError,
  type PluginLogger,
} from '../../../kernel/sdk/index.ts';
import type { RenderJob, RenderOutcome } from './markdown-worker.ts';
import { startWorker } from './worker-thread.ts';

/** How far one report's Markdown-to-HTML rendering may go. */
export interface RenderLimits {
  /** Wall time from starting the worker to its answer. */
  timeoutMs: number;
  /** The worker's heap. */
  memoryMb: number;
  /** Deepest nesting of block quotes and lists. */
  maxDepth: number;
  /** Largest HTML handed back, in UTF-8 bytes. */
  maxHtmlBytes: number;
}

const ENTRY = new URL('./markdown-worker.ts', import.meta.url);

/**
 * Markdown to HTML in a worker thread that is stopped when it overruns its time or memory: the answer is
 * the HTML as UTF-8 (moved, not copied, from the worker), or REPORT_TOO_COMPLEX saying which bound the
 * report passed. One worker per report, so a stopped or poisoned renderer never serves another.
 */
export function renderMarkdown(
  markdown: string,
  limits: RenderLimits,
  opts: { signal?: AbortSignal; log?: PluginLogger } = {},
): Promise<Uint8Array> {
  const job: RenderJob = { markdown, maxDepth: limits.maxDepth, maxHtmlBytes: limits.maxHtmlBytes };
  const { signal, log } = opts;
  return new Promise<Uint8Array>((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelled(signal));
      return;
    }
    const worker = startWorker(ENTRY, job, {
      maxOldGenerationSizeMb: limits.memoryMb,
      maxYoungGenerationSizeMb: Math.max(4, Math.min(64, Math.floor(limits.memoryMb / 8))),
    });
    let settled = false;
    const finish = (err: Error | null, html?: Uint8Array): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(html as Uint8Array);
    };
    const timer = setTimeout(
      () =>
        finish(
          new ReportTooComplexError(
            `rendering the report takes longer than ${limits.timeoutMs} ms (REPORT_RENDER_TIMEOUT_MS)`,
          ),
        ),
      limits.timeoutMs,
    );
    const onAbort = (): void => finish(cancelled(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: RenderOutcome) => {
      if (m.ok) finish(null, new Uint8Array(m.html));
      else finish(new ReportTooComplexError(`the report cannot be exported: ${m.reason}`));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        finish(
          new ReportTooComplexError(
            `rendering the report needs more than ${limits.memoryMb} MB (REPORT_RENDER_MEMORY_MB)`,
          ),
        );
        return;
      }
      log?.error({ err }, 'the Markdown renderer worker failed');
      finish(new ExportUnavailableError('the Markdown renderer failed to start; app.log has the detail'));
    });
    worker.on('exit', () =>
      finish(new ExportUnavailableError('the Markdown renderer stopped without an answer')),
    );
  });
}

function cancelled(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the export was cancelled');
}
