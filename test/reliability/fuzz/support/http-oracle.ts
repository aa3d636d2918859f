// What every HTTP answer must be: a success, or an error in a documented shape (the kernel's coded
// body, RFC 6749 JSON on /token and /revoke, RFC 7591 JSON on /register, the HTML error page of
// /authorize, a JSON-RPC error on /mcp), never a 5xx other than the documented 503s, never a stack trace
// or a server secret.
import * as errors from '../../../../kernel/errors/index.ts';
import { ERROR_CODES, KernelError } from '../../../../kernel/errors/index.ts';
import type { RawAnswer, RawRequest } from './raw-https.ts';
import { leakedSecrets, type Needle } from './secrets.ts';

const OAUTH_CODES = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  // RFC 7591 section 3.2.2, /register; access_denied when the registrations are full.
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'access_denied',
]);
/** The 5xx answers the README documents for a running server. */
const DOCUMENTED_5XX = new Set(['LicenseError', 'AUDIT_UNAVAILABLE', 'EXPORT_UNAVAILABLE']);
/** Statuses a code may come with besides its own: parser refusals (408, 431). */
const EXTRA_STATUS: Record<string, number[]> = { BAD_REQUEST: [408], PAYLOAD_TOO_LARGE: [431] };
const STACK = /\bat [\w.<>$]+ \(?(?:file:|node:|\/)|node_modules\//;

/** The HTTP status each code is answered with. */
export const STATUS_OF: Record<string, number> = Object.fromEntries(
  (Object.values(errors) as unknown[])
    .filter(
      (v): v is new (m: string, n?: number) => KernelError =>
        typeof v === 'function' && (v as { prototype: unknown }).prototype instanceof KernelError,
    )
    .map((C) => new C('x', 1))
    .map((e) => [e.code, e.status]),
);

type Family = 'mcp' | 'oauth' | 'authorize' | 'credentials' | 'other';

function familyOf(target: string): Family {
  let path = target;
  const abs = /^[a-z]+:\/\/[^/]*/i.exec(path);
  if (abs) path = path.slice(abs[0].length);
  path = path.split('?')[0] ?? '';
  if (path === '/mcp' || path === '/mcp/') return 'mcp';
  if (path === '/token' || path === '/revoke' || path === '/register') return 'oauth';
  if (path === '/authorize') return 'authorize';
  if (path.startsWith('/credentials/enter/')) return 'credentials';
  return 'other';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A body is a documented error when one of these says so; returns why not otherwise. */
function errorShapeProblem(family: Family, status: number, a: RawAnswer): string | undefined {
  const type = a.headers['content-type'] ?? '';
  const text = a.body.toString('utf8');
  if (/text\/html/.test(type)) {
    // The credential page's refusals: an HTML page naming a kernel code (docs/credential-page.md).
    if (family === 'credentials') {
      const code = /<strong id="code">([A-Za-z_]+)<\/strong>/.exec(text)?.[1] ?? '';
      return [400, 403, 404, 409, 410, 413, 415].includes(status) &&
        (ERROR_CODES as readonly string[]).includes(code)
        ? undefined
        : `a credential page ${status} without a documented code`;
    }
    return family === 'authorize' && [400, 413, 415, 429].includes(status)
      ? undefined
      : `an HTML ${status} outside /authorize`;
  }
  const json = parseJson(text) as Record<string, unknown> | undefined;
  if (!json || typeof json !== 'object')
    return `a ${status} without a JSON body (${type}): ${text.slice(0, 120)}`;
  const code = json.error;
  if (typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code)) {
    // The token endpoint answers its refusals in the RFC 6749 shape, a kernel code as the error.
    const oauthShaped = family === 'oauth' && typeof json.error_description === 'string';
    if (!oauthShaped && (typeof json.message !== 'string' || typeof json.request_id !== 'string'))
      return `coded body without message or request_id: ${text.slice(0, 200)}`;
    const expected = [STATUS_OF[code], ...(EXTRA_STATUS[code] ?? [])];
    return expected.includes(status) ? undefined : `${code} answered with ${status}`;
  }
  if (family === 'oauth' && typeof code === 'string' && OAUTH_CODES.has(code))
    return typeof json.error_description === 'string' ? undefined : 'OAuth error without error_description';
  if (family === 'mcp' && json.jsonrpc === '2.0' && code && typeof code === 'object') {
    const e = code as Record<string, unknown>;
    return typeof e.code === 'number' && typeof e.message === 'string'
      ? undefined
      : 'malformed JSON-RPC error';
  }
  return `undocumented error body: ${text.slice(0, 200)}`;
}

/** JSON-RPC messages in a JSON or event-stream body. */
function jsonRpcMessages(a: RawAnswer): Record<string, unknown>[] {
  const text = a.body.toString('utf8');
  const type = a.headers['content-type'] ?? '';
  const chunks = /text\/event-stream/.test(type)
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
    : [text];
  const out: Record<string, unknown>[] = [];
  for (const c of chunks) {
    const v = parseJson(c);
    for (const m of Array.isArray(v) ? v : [v])
      if (m && typeof m === 'object') out.push(m as Record<string, unknown>);
  }
  return out;
}

export function judgeHttpAnswer(
  request: RawRequest,
  requestBytes: Buffer,
  a: RawAnswer,
  needles: Needle[],
): string[] {
  const problems: string[] = [];
  const family = familyOf(request.target);
  const status = a.status;
  if (status === 0) return ['the connection closed without an answer'];
  if (status >= 500) {
    const code = (parseJson(a.body.toString('utf8')) as { error?: unknown } | undefined)?.error;
    if (!(status === 503 && typeof code === 'string' && DOCUMENTED_5XX.has(code)))
      problems.push(`${status}: ${a.body.toString('utf8').slice(0, 200)}`);
  } else if (status >= 400 && request.method !== 'HEAD') {
    const why = errorShapeProblem(family, status, a);
    if (why) problems.push(why);
  } else if (status >= 300 && status < 400) {
    if (!(status === 302 && family === 'authorize' && a.headers.location))
      problems.push(`an unexpected redirect ${status} to ${a.headers.location ?? '(none)'}`);
  } else if (status >= 200 && family === 'mcp') {
    for (const m of jsonRpcMessages(a)) {
      const e = m.error as { code?: unknown; message?: unknown } | undefined;
      if (e && e.code === -32603)
        problems.push(`JSON-RPC internal error for a client's request: ${String(e.message).slice(0, 160)}`);
    }
  } else if (status < 200) {
    problems.push(`an informational ${status} as the final answer`);
  }
  if (STACK.test(a.body.toString('utf8'))) problems.push('a stack trace or source path in the answer');
  const leaks = leakedSecrets(needles, a.raw, requestBytes);
  if (leaks.length > 0) problems.push(`secret in the answer: ${leaks.join(', ')}`);
  return problems;
}
