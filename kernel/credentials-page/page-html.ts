import type { KernelContext } from '../http/state.ts';
import { escapeHtml, sendHtmlPage } from '../http/html-page.ts';
import type { CredentialPageRequest } from '../sdk/define.ts';

/** What the form shows: the request the link is bound to, escaped; never a password. */
export interface CredentialFormView {
  serverName: string;
  client: string;
  request: CredentialPageRequest;
  csrf: string;
  expiresAt: string;
  /** A refusal of the previous submission (shown with its code). */
  error?: { code: string; message: string };
  /** The username the person typed last time (kept so a refused attempt need not retype it). */
  username?: string;
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f3f4f6;color:#111827;margin:0}
main{max-width:32rem;margin:4rem auto;background:#fff;border-radius:.5rem;padding:2rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 1rem;overflow-wrap:anywhere}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1.5rem}
dt{color:#6b7280}dd{margin:0;overflow-wrap:anywhere}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #d1d5db;border-radius:.375rem;font:inherit}
fieldset{border:1px solid #d1d5db;border-radius:.375rem;margin:1rem 0}fieldset label{font-weight:400;display:inline}
code{overflow-wrap:anywhere}button{margin-top:1.5rem;padding:.5rem 1rem;border-radius:.375rem;font:inherit;cursor:pointer;background:#1d4ed8;border:1px solid #1d4ed8;color:#fff}
.error{background:#fef2f2;color:#991b1b;padding:.75rem;border-radius:.375rem}.ok{background:#f0fdf4;color:#166534;padding:.75rem;border-radius:.375rem}
`;

/**
 * No script at all, nothing loaded from anywhere, the form posted only to this origin, never framed.
 * Styles carry a per-answer nonce (no 'unsafe-inline').
 */
function csp(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "script-src 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function send(ctx: KernelContext, status: number, title: string, body: string): void {
  sendHtmlPage(ctx, status, { title, body, style: STYLE, csp, isolated: true });
}

/** Longest text of a request shown on the page; past it, the value is cut and marked. */
const SHOWN_MAX = 300;

function shown(value: string): string {
  return escapeHtml(value.length > SHOWN_MAX ? `${value.slice(0, SHOWN_MAX)}…` : value);
}

export function sendCredentialForm(ctx: KernelContext, status: number, v: CredentialFormView): void {
  const r = v.request;
  const e = shown;
  const verb = r.operation === 'store' ? 'Store' : 'Update';
  const details = Object.entries(r.details)
    .map(([k, val]) => `<dt>${e(k)}</dt><dd>${e(val)}</dd>`)
    .join('\n');
  const body = `<h1>${verb} ${e(r.product.toUpperCase())} ${e(r.kindLabel)} credentials for ${e(r.host)}</h1>
<p>The client <strong>${e(v.client)}</strong> of <strong>${e(v.serverName)}</strong> asks for these
credentials. They go straight into that client's encrypted vault on the server: the client and its AI
model never see the password. Continue only if you expected this request.</p>
${v.error ? `<p class="error" role="alert"><strong id="code">${e(v.error.code)}</strong>: ${e(v.error.message)}</p>` : ''}
<dl>
<dt>Client</dt><dd id="client">${e(v.client)}</dd>
<dt>Product</dt><dd id="product">${e(r.product)}</dd>
<dt>Kind</dt><dd id="kind">${e(r.kindLabel)}</dd>
<dt>Host</dt><dd id="host">${e(r.host)}</dd>
<dt>Operation</dt><dd>${e(r.operation)}</dd>
${details}
<dt>Link expires</dt><dd>${e(v.expiresAt)}</dd>
</dl>
<form method="post" action="${escapeHtml(ctx.path.slice(ctx.path.lastIndexOf('/') + 1))}" autocomplete="off">
<input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}">
<label for="username">Username</label>
<input id="username" name="username" type="text" required maxlength="256" value="${e(v.username ?? r.username ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required maxlength="1024" autocomplete="new-password">
${hostKeyFieldset(r)}
<button type="submit">${verb} credentials</button>
</form>`;
  send(ctx, status, `${verb} credentials for ${r.host.slice(0, 80)}`, body);
}

/**
 * The SSH host-key decision, as *_os_trust_fingerprint makes it: only on a key the node presented
 * (recorded when a connection was refused), only when the caller's profile may decide.
 */
function hostKeyFieldset(r: CredentialPageRequest): string {
  const k = r.hostKey;
  if (!k) return '';
  const fp = k.fingerprint ? `<code id="fingerprint">${escapeHtml(k.fingerprint)}</code>` : '';
  const tool = `${r.product}_os_trust_fingerprint`;
  if (k.state === 'trusted')
    return `<p id="host-key">SSH host key pinned: ${fp}. Connections must present exactly this key.</p>`;
  if (k.state === 'none')
    return `<p id="host-key">No SSH host key has been seen for this host yet. The first connection records
the key the node presents and is refused before anything is sent; then compare it with the node's key
taken out of band (<code>ssh-keyscan</code> from a trusted host, then <code>ssh-keygen -lf</code>) and trust it
(${escapeHtml(tool)}, or a new link).</p>`;
  if (k.state === 'rejected')
    return `<p id="host-key">The SSH host key ${fp} of this host was rejected. Reverse it with ${escapeHtml(tool)}.</p>`;
  if (!k.decidable)
    return `<p id="host-key">The node presented the SSH host key ${fp}, which awaits a decision your
profile may not make (${escapeHtml(tool)} needs an admin).</p>`;
  return `<fieldset id="host-key"><legend>SSH host key</legend>
<p>The node presented ${fp}. Compare it with the node's key taken out of band (<code>ssh-keyscan</code> from a
trusted host, then <code>ssh-keygen -lf</code>).</p>
<input type="radio" id="hk-later" name="host_key" value="later" checked> <label for="hk-later">Decide later</label><br>
<input type="radio" id="hk-trust" name="host_key" value="trust"> <label for="hk-trust">Trust this key (pin it)</label><br>
<input type="radio" id="hk-reject" name="host_key" value="reject"> <label for="hk-reject">Reject this key</label>
</fieldset>`;
}

/** The answer to a stored submission: nothing of what was typed. */
export function sendStoredPage(ctx: KernelContext, request: CredentialPageRequest, hostKey?: string): void {
  const verb = request.operation === 'store' ? 'stored' : 'updated';
  send(
    ctx,
    200,
    `Credentials ${verb}`,
    `<h1>Credentials ${verb}</h1><p class="ok" role="status">The ${shown(request.kindLabel)} credentials for
<strong>${shown(request.host)}</strong> are ${verb} in the vault${hostKey ? `; SSH host key: ${shown(hostKey)}` : ''}.
You can close this page and return to your assistant.</p>`,
  );
}

/** A refusal the person cannot fix on this page (a wrong, expired or used link, a foreign client...). */
export function sendCredentialError(ctx: KernelContext, status: number, code: string, message: string): void {
  send(
    ctx,
    status,
    'Credential link refused',
    `<h1>Credential link refused</h1><p class="error" role="alert"><strong id="code">${escapeHtml(code)}</strong>: ${escapeHtml(message)}</p>`,
  );
}
