import { ReportStore } from './reports/store.ts';
import { PdfRenderer } from './reports/pdf-renderer.ts';
import { ExportGate } from './reports/export-gate.ts';
import { MarkdownRenderer } from './reports/markdown-renderer.ts';
import { toolsFor, type PluginServices, type ReportLimitSettings } from '../../kernel/sdk/index.ts';

/** REPORT_BROWSER_IDLE_SECONDS's default, for a kernel of API 1.2 that does not pass it. */
const DEFAULT_BROWSER_IDLE_SECONDS = 20;

/** The REPORT_* defaults of kernel/config/schema.ts, for a kernel that passes none. */
export const DEFAULT_REPORT_LIMITS: ReportLimitSettings = {
  exportMaxBytes: 2_097_152,
  renderTimeoutMs: 15_000,
  renderMemoryMb: 256,
  pdfTimeoutMs: 60_000,
  browserIdleSeconds: DEFAULT_BROWSER_IDLE_SECONDS,
  maxFilesPerClient: 200,
  maxBytesPerClient: 268_435_456,
};

/** Deepest nesting of block quotes and lists a report may have to be exported. */
export const MAX_NESTING = 100;
/** HTML may be this many times the Markdown it comes from (a table of one-letter cells is about 6). */
const HTML_EXPANSION = 8;
/** Exports running at once, over all clients (each also holds at most one). */
const EXPORT_SLOTS = 2;

/** What the common plugin's tools share: the report limits, one store per client, the renderers. */
export interface CommonShared {
  reportsRoot: string;
  limits: ReportLimitSettings;
  markdown: MarkdownRenderer;
  pdf: PdfRenderer;
  exports: ExportGate;
  storeFor(client: string): ReportStore;
}

export function setupCommon(services: PluginServices): CommonShared {
  const reportsRoot = services.dirs.reports;
  const limits = services.settings.reportLimits ?? DEFAULT_REPORT_LIMITS;
  const storeLimits = {
    reportMaxBytes: services.settings.reportMaxBytes,
    maxFiles: limits.maxFilesPerClient,
    maxBytes: limits.maxBytesPerClient,
  };
  // One store per client for the server's life: its write queue is what serialises that client's writes.
  const stores = new Map<string, ReportStore>();
  // Renderer processes and the browser are kept this long after an export, for the next one.
  const idleMs = (limits.browserIdleSeconds ?? DEFAULT_BROWSER_IDLE_SECONDS) * 1000;
  return {
    reportsRoot,
    limits,
    markdown: new MarkdownRenderer(
      {
        timeoutMs: limits.renderTimeoutMs,
        memoryMb: limits.renderMemoryMb,
        maxDepth: MAX_NESTING,
        maxHtmlBytes: HTML_EXPANSION * limits.exportMaxBytes,
      },
      services.log,
      idleMs,
    ),
    pdf: new PdfRenderer(services.settings.chromiumPath, limits.pdfTimeoutMs, services.log, idleMs),
    exports: new ExportGate(EXPORT_SLOTS),
    storeFor(client) {
      let store = stores.get(client);
      if (!store) {
        store = ReportStore.forClient(reportsRoot, client, storeLimits);
        stores.set(client, store);
      }
      return store;
    },
  };
}

/** defineTool for this plugin's tools (typed ctx.shared). */
export const commonTool = toolsFor<CommonShared>();
