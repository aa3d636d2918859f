// What a CUPI path may be before anything is sent: a path strictly under /vmrest/ on the stored host,
// in one canonical spelling. The allowlist (kernel/rbac/policy.ts) globs "METHOD /vmrest/..." subjects,
// so it must only ever see the canonical form, and the request must carry exactly that form: a path the
// allowlist matched can then not mean something else to Tomcat (no `..`, no encoded tricks, no other host).
import { BadRequestError } from '../../../kernel/sdk/index.ts';

export const CUPI_PREFIX = '/vmrest/';
/** Longest path accepted as given (raw, before decoding); CUPI paths are a few GUIDs long at most. */
export const MAX_PATH_LENGTH = 512;
/** Most segments below /vmrest/ (users/{id}/credential/pin is 4; the deepest CUPI paths are about 8). */
export const MAX_SEGMENTS = 12;
/** Most query parameters on one call, and the longest name and value. */
export const MAX_QUERY_PARAMS = 16;
export const MAX_QUERY_VALUE = 1024;

/**
 * Characters a decoded segment may hold: the URI "unreserved" set plus `*` and `#` (the touch-tone keys
 * of menu entries). Everything else (`%`, `/`, `\`, `;`, `@`, `?`, `:`, space, controls, non-ASCII) is
 * refused: none occurs in CUPI paths, and each has been used to smuggle traversal or a host.
 */
const SEGMENT_CHARS = /^[A-Za-z0-9._~*#-]+$/;
/** Kept literally in the canonical form; `#` is the only allowed character that is re-encoded (%23). */
const LITERAL = /[A-Za-z0-9._~*-]/;

function refuse(why: string): never {
  throw new BadRequestError(`CUPI path refused: ${why}`);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Percent-decodes one segment strictly: every `%` starts two hex digits, and the bytes are valid UTF-8. */
function decodeSegment(segment: string, index: number): string {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    const ch = segment.charCodeAt(i);
    if (ch !== 0x25) {
      bytes.push(ch);
      continue;
    }
    const hex = segment.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) refuse(`segment ${index + 1} has a malformed percent-encoding`);
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  try {
    // fatal: overlong forms such as %c0%ae (a disguised ".") and stray continuation bytes throw.
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return refuse(`segment ${index + 1} is not valid UTF-8 once decoded (overlong or broken encoding)`);
  }
}

function encodeSegment(decoded: string): string {
  let out = '';
  for (const ch of decoded) out += LITERAL.test(ch) ? ch : `%${ch.charCodeAt(0).toString(16).toUpperCase()}`;
  return out;
}

/**
 * The canonical form of a CUPI path, or BadRequestError. Accepts `/vmrest/<segments>` only; decodes each
 * segment once, refuses anything that decodes to a separator, a dot segment, another encoding (double
 * encoding), or a character outside SEGMENT_CHARS; re-encodes in one spelling. A trailing slash is
 * dropped (CUPI answers both forms alike). Query strings go through `encodeQuery`, never in the path.
 */
export function canonicalCupiPath(raw: string): string {
  if (typeof raw !== 'string' || raw === '') return refuse('the path is empty');
  if (raw.length > MAX_PATH_LENGTH) refuse(`longer than ${MAX_PATH_LENGTH} characters`);
  // Raw checks first, each with its own message: the caller learns which rule it broke.
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw) || raw.startsWith('//') || raw.includes('://'))
    refuse('absolute URLs and other hosts are not allowed; give a path under /vmrest/ on the stored host');
  // Printable ASCII only: no whitespace, CR/LF, NUL or other controls, no Unicode look-alike dots.
  if (/[^\x21-\x7e]/.test(raw)) refuse('only printable ASCII is allowed (no spaces, controls or non-ASCII)');
  if (raw.includes('\\')) refuse('backslashes are not allowed');
  if (raw.includes('@')) refuse('"@" is not allowed');
  if (raw.includes('#')) refuse('fragments ("#") are not allowed');
  if (raw.includes('?')) refuse('no query string in the path; pass parameters in "query"');
  if (raw.includes(';')) refuse('path parameters (";") are not allowed');
  if (!raw.startsWith(CUPI_PREFIX)) refuse('the path must start with /vmrest/');

  const segments = raw.slice(CUPI_PREFIX.length).split('/');
  if (segments.length > 1 && segments.at(-1) === '') segments.pop();
  if (segments.length > MAX_SEGMENTS) refuse(`more than ${MAX_SEGMENTS} segments below /vmrest/`);
  const canonical = segments.map((segment, i) => {
    if (segment === '')
      return refuse(segments.length === 1 ? 'no resource after /vmrest/' : 'empty segment ("//")');
    const decoded = decodeSegment(segment, i);
    if (/^\.+$/.test(decoded)) refuse('"." and ".." segments are not allowed (also when encoded)');
    if (decoded.includes('%')) refuse(`segment ${i + 1} is encoded twice`);
    if (!SEGMENT_CHARS.test(decoded))
      refuse(`segment ${i + 1} holds a character CUPI paths do not use (after decoding)`);
    return encodeSegment(decoded);
  });
  return CUPI_PREFIX + canonical.join('/');
}

/**
 * A list resource as `users`, `handlers/callhandlers` or `/vmrest/users`, as a canonical path. A
 * leading slash without /vmrest/ is refused rather than guessed at.
 */
export function resourcePath(resource: string): string {
  if (resource.startsWith(CUPI_PREFIX)) return canonicalCupiPath(resource);
  if (resource.startsWith('/') || resource.startsWith('\\'))
    return refuse('give the resource below /vmrest/, e.g. "users" or "/vmrest/users"');
  return canonicalCupiPath(CUPI_PREFIX + resource);
}

export type QueryValue = string | number | boolean;

/**
 * Query parameters as a query string (with its `?`, or '' when none), every name and value
 * percent-encoded (spaces as %20, as Cisco's examples write them), in the order given.
 */
export function encodeQuery(params: Record<string, QueryValue | undefined>): string {
  const entries = Object.entries(params).filter((e): e is [string, QueryValue] => e[1] !== undefined);
  if (entries.length > MAX_QUERY_PARAMS) refuse(`more than ${MAX_QUERY_PARAMS} query parameters`);
  const parts = entries.map(([name, value]) => {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)) refuse(`query parameter name "${name.slice(0, 64)}"`);
    const text = String(value);
    if (text.length > MAX_QUERY_VALUE)
      refuse(`query parameter ${name} is over ${MAX_QUERY_VALUE} characters`);
    // Controls would still be encoded safely, but no CUPI parameter has any: refusing says so early.
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x1f\x7f]/.test(text)) refuse(`query parameter ${name} holds control characters`);
    try {
      return `${name}=${encodeURIComponent(text)}`;
    } catch {
      // A lone surrogate has no UTF-8 form.
      return refuse(`query parameter ${name} is not valid Unicode text`);
    }
  });
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}
