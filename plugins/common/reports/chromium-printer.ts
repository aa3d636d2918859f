import { existsSync } from 'node:fs';
// Types only: playwright-core itself is imported on the first print (launch()), so a server that never
// exports a PDF never loads it.
import type { Browser, BrowserContext } from 'playwright-core';
import { lowerBrowserPriority } from './browser-priority.ts';
import { endProcessGroup } from './process-group.ts';

/** Chromium's process name (Chrome's, for a CHROMIUM_PATH that points at Chrome). */
const BROWSER_PROCESS = /^chrom/i;

const STYLE = `
  body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10.5pt; line-height: 1.45; color: #111; }
  h1 { font-size: 20pt; border-bottom: 2px solid #333; padding-bottom: 4px; }
  h2 { font-size: 15pt; border-bottom: 1px solid #999; margin-top: 1.6em; }
  h3 { font-size: 12.5pt; }
  table { border-collapse: collapse; width: 100%; margin: 0.8em 0; }
  th, td { border: 1px solid #aaa; padding: 4px 6px; text-align: left; vertical-align: top; }
  th { background: #eee; }
  code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 9pt; }
  pre { background: #f4f4f4; padding: 8px; white-space: pre-wrap; word-break: break-all; }
`;

/** Why a print failed: the report's fault (over time), or the printer's (no Chromium, a crash). */
export class PrintFailure extends Error {
  constructor(
    readonly kind: 'too-complex' | 'unavailable',
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/**
 * HTML to PDF with the system Chromium, one browser reused across exports (launching costs about a
 * second). Pages run with JavaScript off and every network request aborted: a report's content is
 * whatever an agent wrote, and must not make the server fetch anything. Layout and printing are bounded
 * by `timeoutMs`: a report that takes longer is a "too-complex" failure and its page is closed.
 * Runs in the PDF worker process (pdf-worker.ts), never in the server's: handing
 * megabytes of HTML to Chromium costs playwright a quarter of a second of CPU per megabyte.
 */
export class ChromiumPrinter {
  private browser: Promise<Browser> | undefined;
  /** The browser's process group (its pid: playwright starts it as a group leader). */
  private group: number | undefined;
  /** A close under way: a print waits for it, so that two browsers never run at once. */
  private closing: Promise<void> | undefined;

  constructor(
    private readonly executablePath: string,
    private readonly timeoutMs: number,
  ) {}

  async print(html: string, title: string): Promise<Buffer> {
    await this.closing;
    const browser = await this.launch();
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new PrintFailure(
              'too-complex',
              `Chromium takes longer than ${this.timeoutMs} ms to lay out and print the report (REPORT_PDF_TIMEOUT_MS)`,
            ),
          ),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([this.printIn(context, html, title), overrun]);
    } catch (err) {
      if (err instanceof PrintFailure) throw err;
      throw new PrintFailure(
        'unavailable',
        'Chromium failed to print the report; app.log has the detail',
        (err as Error).message,
      );
    } finally {
      clearTimeout(timer);
      // Closing the context ends its renderer process, and with it a layout still running after an overrun.
      await context.close().catch(() => undefined);
    }
  }

  /** Closes the browser, then ends whatever of its process group outlived it (renderers, zygotes). */
  close(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    if (!b) return this.closing ?? Promise.resolve();
    const closing = (async () => {
      await (await b.catch(() => undefined))?.close().catch(() => undefined);
      if (this.group !== undefined) await endProcessGroup(this.group, BROWSER_PROCESS);
      this.group = undefined;
    })().finally(() => {
      if (this.closing === closing) this.closing = undefined;
    });
    this.closing = closing;
    return closing;
  }

  private async printIn(context: BrowserContext, html: string, title: string): Promise<Buffer> {
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    // The page's renderer is new, and a browser running as root has raised it again.
    await lowerBrowserPriority(BROWSER_PROCESS);
    await page.setContent(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${html}</body></html>`,
      { waitUntil: 'domcontentloaded', timeout: this.timeoutMs },
    );
    return page.pdf({
      format: 'A4',
      printBackground: true,
      margin: { top: '18mm', bottom: '18mm', left: '15mm', right: '15mm' },
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate:
        '<div style="font-size:8px;width:100%;text-align:center;color:#666"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
    });
  }

  private launch(): Promise<Browser> {
    if (!existsSync(this.executablePath)) {
      throw new PrintFailure(
        'unavailable',
        `PDF export needs Chromium at ${this.executablePath}: install it (apt-get install chromium) or set CHROMIUM_PATH`,
      );
    }
    if (this.browser) return this.browser;
    const launching: Promise<Browser> = import('playwright-core')
      .then(({ chromium }) =>
        chromium.launch({
          executablePath: this.executablePath,
          headless: true,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-dev-shm-usage',
          ],
        }),
      )
      .then(async (b) => {
        // A crashed browser is forgotten, and the next print starts another; a closed one already is.
        b.on('disconnected', () => {
          if (this.browser === launching) this.browser = undefined;
        });
        this.group = await browserPid(b);
        return b;
      })
      .catch((err: unknown) => {
        if (this.browser === launching) this.browser = undefined;
        throw new PrintFailure(
          'unavailable',
          `Chromium could not be started: ${(err as Error).message.split('\n')[0]}`,
        );
      });
    this.browser = launching;
    return launching;
  }
}

/** The browser process's pid, from Chromium itself; undefined if it does not say. */
async function browserPid(b: Browser): Promise<number | undefined> {
  try {
    const cdp = await b.newBrowserCDPSession();
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    await cdp.detach();
    return info.processInfo.find((p) => p.type === 'browser')?.id;
  } catch {
    return undefined;
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
