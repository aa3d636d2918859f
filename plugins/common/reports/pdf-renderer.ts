import { existsSync } from 'node:fs';
import { Marked } from 'marked';
import { chromium, type Browser } from 'playwright-core';
import { ExportUnavailableError } from '../../../kernel/sdk/index.ts';

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

/**
 * Markdown to PDF with the system Chromium, one browser reused across exports (launching costs about
 * a second). Pages run with JavaScript off and every network request aborted: a report's content is
 * whatever an agent wrote, and must not make the server fetch anything.
 */
export class PdfRenderer {
  private browser: Promise<Browser> | undefined;
  private readonly marked = new Marked({ gfm: true });

  constructor(private readonly executablePath: string) {}

  async render(markdown: string, title: string): Promise<Buffer> {
    const browser = await this.launch();
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    try {
      await context.route('**/*', (route) => route.abort());
      const page = await context.newPage();
      const body = await this.marked.parse(markdown);
      await page.setContent(
        `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`,
        { waitUntil: 'domcontentloaded' },
      );
      return await page.pdf({
        format: 'A4',
        printBackground: true,
        margin: { top: '18mm', bottom: '18mm', left: '15mm', right: '15mm' },
        displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate:
          '<div style="font-size:8px;width:100%;text-align:center;color:#666"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
      });
    } finally {
      await context.close();
    }
  }

  async close(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    if (b) await (await b.catch(() => undefined))?.close();
  }

  private launch(): Promise<Browser> {
    if (!existsSync(this.executablePath)) {
      throw new ExportUnavailableError(
        `PDF export needs Chromium at ${this.executablePath}: install it (apt-get install chromium) or set CHROMIUM_PATH`,
      );
    }
    this.browser ??= chromium
      .launch({
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
      })
      .then((b) => {
        b.on('disconnected', () => {
          this.browser = undefined;
        });
        return b;
      })
      .catch((err: unknown) => {
        this.browser = undefined;
        throw new ExportUnavailableError(
          `Chromium could not be started: ${(err as Error).message.split('\n')[0]}`,
        );
      });
    return this.browser;
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
