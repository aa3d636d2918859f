// Characters a node cannot receive, found before anything is sent. A SOAP request (AXL, RisPort70) is
// XML 1.0, which cannot carry most C0 controls, lone surrogates or U+FFFE/U+FFFF even as character
// references; no text at all can carry a lone surrogate (it has no UTF-8 form), and a NUL ends a string
// on the node's side. Such input is the caller's error: a coded BAD_REQUEST naming the argument, never
// an envelope builder's exception or a request the node would misread.
import { BadRequestError } from '../../../kernel/sdk/index.ts';

/** `xml`: what XML 1.0 can carry. `text`: any Unicode text but NUL (JSON bodies, where \n and \t are data). */
export type WireRule = 'xml' | 'text';

const NOT_CARRIED: Record<WireRule, RegExp> = {
  xml: /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u,
  text: /[\0\p{Cs}]/u,
};

/** Deeper than any argument the tools accept (jsonValue stops at 64 levels). */
const MAX_DEPTH = 100;

/**
 * Throws BadRequestError naming the first string of `value` (a key or a value, at any depth) holding a
 * character `rule` cannot carry. `where` names the argument (`args`, `body`, `select_items`).
 */
export function assertCarriable(value: unknown, where: string, rule: WireRule): void {
  const found = firstUncarriable(value, where, rule, 0);
  if (found)
    throw new BadRequestError(
      `argument ${found.path} holds ${describeChar(found.char)}, which ${rule === 'xml' ? 'XML 1.0 (the SOAP request) cannot carry' : 'the node cannot receive as text'}; nothing was sent`,
    );
}

function firstUncarriable(
  value: unknown,
  path: string,
  rule: WireRule,
  depth: number,
): { path: string; char: string } | undefined {
  if (typeof value === 'string') {
    const m = NOT_CARRIED[rule].exec(value);
    return m ? { path, char: m[0] } : undefined;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstUncarriable(value[i], `${path}[${i}]`, rule, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value)) {
    const m = NOT_CARRIED[rule].exec(key);
    if (m) return { path: `${path} (a field name)`, char: m[0] };
    const found = firstUncarriable(v, `${path}.${safeKey(key)}`, rule, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** A key as it can be shown in a message: plain names as they are, anything else quoted and cut. */
function safeKey(key: string): string {
  return /^[A-Za-z0-9_$-]{1,64}$/.test(key) ? key : JSON.stringify(key.slice(0, 32));
}

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  const u = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code === 0) return `a NUL character (${u})`;
  if (code >= 0xd800 && code <= 0xdfff) return `an unpaired surrogate (${u})`;
  if (code === 0xfffe || code === 0xffff) return `a non-character (${u})`;
  return `a control character (${u})`;
}
