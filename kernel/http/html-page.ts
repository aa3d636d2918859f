// The server's own HTML pages (the OAuth login page, the credential page): self-contained, never
// cached, never framed, their one stylesheet allowed by a per-response nonce.
import { randomBytes } from 'node:crypto';
import type { KernelContext } from './state.ts';

/** Text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface HtmlPage {
  title: string;
  body: string;
  style: string;
  /** The Content-Security-Policy, given the nonce of this response's style element. */
  csp: (nonce: string) => string;
  /** Extra response headers and head elements of a page that must stay private to its opener. */
  isolated?: boolean;
}

export function sendHtmlPage(ctx: KernelContext, status: number, page: HtmlPage): void {
  const nonce = randomBytes(16).toString('base64');
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', page.csp(nonce));
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer browsers post a form with `Origin: null`, which the
  // Host/Origin guard rightly refuses. The pages load nothing and link nowhere else, so their URLs reach
  // no other origin either way.
  ctx.set('Referrer-Policy', 'same-origin');
  if (page.isolated) {
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
  }
  const robots = page.isolated ? '\n<meta name="robots" content="noindex">' : '\n';
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${robots}<title>${escapeHtml(page.title)}</title><style nonce="${nonce}">${page.style}</style></head>
<body><main>${page.body}</main></body></html>
`;
}
