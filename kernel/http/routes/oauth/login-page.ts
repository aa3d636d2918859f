import { escapeHtml, sendHtmlPage } from '../../html-page.ts';
import type { KernelContext } from '../../state.ts';

/** Everything the login page shows; every value is escaped before it reaches the HTML. */
export interface LoginView {
  serverName: string;
  /** A configured client asking for itself: the person enters its secret. */
  client?: { name: string; profile: string; products: string[] };
  /**
   * An application asking: the person names a configured client and enters its secret; the application
   * acts as that client. Its name is its own claim (a registration's is not verified at all).
   */
  app?: { id: string; name: string | null; source: 'registered' | 'document' };
  redirectUri: string;
  scope: string;
  csrf: string;
  error?: string;
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f3f4f6;color:#111827;margin:0}
main{max-width:30rem;margin:4rem auto;background:#fff;border-radius:.5rem;padding:2rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 1rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1.5rem}
dt{color:#6b7280}dd{margin:0;word-break:break-all}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #d1d5db;border-radius:.375rem;font:inherit}
input[readonly]{background:#f9fafb}.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{padding:.5rem 1rem;border-radius:.375rem;border:1px solid #d1d5db;font:inherit;cursor:pointer;background:#fff}
button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}.error{background:#fef2f2;color:#991b1b;padding:.75rem;border-radius:.375rem}
`;

/**
 * The page's Content-Security-Policy: nothing may load (the page is self-contained), the form may be
 * posted only here, and, because browsers apply form-action to the redirect that answers the form,
 * to the origin of this request's redirect URI.
 */
function csp(nonce: string, redirectUri?: string): string {
  const targets = ["'self'"];
  if (redirectUri) {
    const source = cspSourceOf(redirectUri);
    if (source) targets.push(source);
  }
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `form-action ${targets.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function cspSourceOf(uri: string): string | null {
  try {
    const u = new URL(uri);
    const source =
      u.protocol === 'http:' || u.protocol === 'https:' ? `${u.protocol}//${u.host}` : u.protocol;
    return /^[a-z][a-z0-9+.-]*:(\/\/[A-Za-z0-9.\-[\]:]+)?$/.test(source) ? source : null;
  } catch {
    return null;
  }
}

function send(ctx: KernelContext, status: number, title: string, body: string, redirectUri?: string): void {
  sendHtmlPage(ctx, status, { title, body, style: STYLE, csp: (nonce) => csp(nonce, redirectUri) });
}

export function sendLoginPage(ctx: KernelContext, status: number, v: LoginView): void {
  if (v.app) return sendAppLoginPage(ctx, status, { ...v, app: v.app });
  const e = escapeHtml;
  const c = v.client ?? { name: '', profile: '', products: [] };
  const body = `<h1>Authorize ${e(c.name)}</h1>
<p>An application is asking for access to <strong>${e(v.serverName)}</strong> as the client below.
Enter that client's secret only if you started this sign-in yourself.</p>
${v.error ? `<p class="error" role="alert">${e(v.error)}</p>` : ''}
<dl>
<dt>Client</dt><dd id="client-name">${e(c.name)}</dd>
<dt>Profile</dt><dd>${e(c.profile)}</dd>
<dt>Products</dt><dd>${e(c.products.join(', '))}</dd>
<dt>Scope</dt><dd>${e(v.scope)}</dd>
<dt>Redirect</dt><dd id="redirect-uri">${e(v.redirectUri)}</dd>
</dl>
<form method="post" action="authorize" autocomplete="off">
<input type="hidden" name="csrf" value="${e(v.csrf)}">
<label for="client_id">Client ID</label>
<input id="client_id" name="client_id" value="${e(c.name)}" readonly>
<label for="client_secret">Client secret</label>
<input id="client_secret" name="client_secret" type="password" required autofocus>
<div class="actions">
<button class="primary" type="submit" name="decision" value="approve">Authorize</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>`;
  send(ctx, status, `Authorize ${c.name}`, body, v.redirectUri);
}

/**
 * The page an application's sign-in shows: what the application says it is (escaped, marked as its
 * own claim), where it is known from, where the browser goes next, and a form for a configured client's
 * name and secret: the application gets that client's access, never more.
 */
function sendAppLoginPage(
  ctx: KernelContext,
  status: number,
  v: LoginView & { app: NonNullable<LoginView['app']> },
): void {
  const e = escapeHtml;
  const name = v.app.name ?? 'An unnamed application';
  const known =
    v.app.source === 'registered'
      ? 'registered itself with this server; its name is not verified'
      : `its metadata document at ${hostOf(v.app.id)}`;
  const body = `<h1>Authorize ${e(name)}</h1>
<p>An application asks for access to <strong>${e(v.serverName)}</strong>. Sign in as one of this
server's clients: the application will act as that client, with its profile and products. Continue only
if you started this sign-in yourself and recognise the application and where it sends you.</p>
${v.error ? `<p class="error" role="alert">${e(v.error)}</p>` : ''}
<dl>
<dt>Application</dt><dd id="app-name">${e(name)}</dd>
<dt>Application ID</dt><dd id="app-id">${e(v.app.id)}</dd>
<dt>Known by</dt><dd id="app-source">${e(known)}</dd>
<dt>Scope</dt><dd>${e(v.scope)}</dd>
<dt>Redirect</dt><dd id="redirect-uri">${e(v.redirectUri)}</dd>
</dl>
<form method="post" action="authorize" autocomplete="off">
<input type="hidden" name="csrf" value="${e(v.csrf)}">
<label for="client_id">Client name</label>
<input id="client_id" name="client_id" required autofocus>
<label for="client_secret">Client secret</label>
<input id="client_secret" name="client_secret" type="password" required>
<div class="actions">
<button class="primary" type="submit" name="decision" value="approve">Authorize</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>`;
  send(ctx, status, `Authorize ${name}`, body, v.redirectUri);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** An error the browser must show rather than redirect (unknown client, unregistered redirect URI...). */
export function sendErrorPage(ctx: KernelContext, status: number, title: string, message: string): void {
  send(
    ctx,
    status,
    title,
    `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(message)}</p>`,
  );
}
