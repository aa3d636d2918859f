/**
 * Masks secrets before anything is logged or audited: values whose key names a secret, at any depth,
 * and secret-shaped text inside any string (an exception message that quotes a password, a bearer
 * token or a URL with userinfo). The list errs on the side of hiding: a redacted harmless value costs
 * nothing, a leaked secret does.
 */
const SECRET_KEYS =
  /pass(word|wd|phrase)?$|secret|token|authorization|cookie|private_?key|api_?key|credential|^pin$|bearer|code_verifier/i;

const SECRET_TEXT: [RegExp, string][] = [
  [
    /\b(pass(?:word|wd|phrase)?|pwd|secret|token|client_secret|api_?key)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s,;&"']+)/gi,
    '$1$2[REDACTED]',
  ],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]+=*/g, '$1 [REDACTED]'],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, '[REDACTED-JWT]'],
  [/(\/\/)[^/\s:@]+:[^/\s@]+@/g, '$1[REDACTED]@'],
  // `user:password@host` without a scheme (a login pasted into a host field): up to the last @ of the word.
  [/(^|[\s"'(<[=,])[A-Za-z0-9._~-]+:(?!\/\/)\S+@(?=[A-Za-z0-9[])/g, '$1[REDACTED]@'],
];

/**
 * Matches wherever any SECRET_TEXT pattern would (each pattern, case-insensitively, as one alternative):
 * text it does not match holds nothing to scrub, so scrubText returns it after one scan instead of one
 * replace per pattern. Built from the patterns themselves, so a pattern added above is covered too.
 */
const MAY_HOLD_SECRET = SECRET_TEXT.some(([pattern]) => /\\[1-9]|\\k</.test(pattern.source))
  ? // A backreference would point at another pattern's group once joined: no shortcut then.
    null
  : new RegExp(
      SECRET_TEXT.map(([pattern]) => `(?:${pattern.source})`).join('|'),
      `${[...new Set(SECRET_TEXT.flatMap(([pattern]) => [...pattern.flags]))].filter((f) => f !== 'g' && f !== 'y' && f !== 'i').join('')}i`,
    );

/** Fields naming a node: no valid one holds an @, so whatever comes before the last @ is a pasted login. */
const HOST_KEYS = /^(host|hostname|address|cluster)$/i;

export const REDACTED = '[REDACTED]';

/** How deep `redact` walks; what lies deeper is replaced whole by TOO_DEEP. */
const MAX_DEPTH = 8;
const TOO_DEEP = '[REDACTED: nested too deep]';

export function scrubText(text: string): string {
  if (MAY_HOLD_SECRET && !MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

/** A field that also counts as secret, beyond SECRET_KEYS (the support bundle's broader rule). */
export type SecretField = (key: string, value: unknown) => boolean;

export function redact(value: unknown, depth = 0, alsoSecret?: SecretField): unknown {
  if (typeof value === 'string') return scrubText(value);
  // A Date (bunyan's `time`) is kept whole: it has no own properties to copy.
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  // Below the walk's depth nothing is looked at, so nothing is kept: a secret nested deeper must not pass.
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, alsoSecret));
  if (value instanceof Error) return redact(serializeError(value), depth + 1, alsoSecret);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const kind = keyKind(k);
    const secret = kind === SECRET || (alsoSecret?.(k, v) ?? false);
    out[k] =
      secret && v !== undefined && v !== null && v !== ''
        ? REDACTED
        : kind === HOST && typeof v === 'string' && v.includes('@')
          ? `${REDACTED}${v.slice(v.lastIndexOf('@'))}`
          : redact(v, depth + 1, alsoSecret);
  }
  return out;
}

const PLAIN = 0;
const SECRET = 1;
const HOST = 2;
type KeyKind = typeof PLAIN | typeof SECRET | typeof HOST;

/**
 * What SECRET_KEYS and HOST_KEYS say of a key, remembered: records repeat the same few keys, and a key
 * is classified by its name alone. Bounded, since keys can come from a caller's arguments; past the
 * bound a key is classified afresh each time.
 */
const keyKinds = new Map<string, KeyKind>();
const MAX_REMEMBERED_KEYS = 2048;

function keyKind(key: string): KeyKind {
  const known = keyKinds.get(key);
  if (known !== undefined) return known;
  const kind = SECRET_KEYS.test(key) ? SECRET : HOST_KEYS.test(key) ? HOST : PLAIN;
  if (keyKinds.size < MAX_REMEMBERED_KEYS) keyKinds.set(key, kind);
  return kind;
}

function serializeError(err: Error): Record<string, unknown> {
  const code = (err as { code?: unknown }).code;
  return {
    name: err.name,
    message: err.message,
    ...(code !== undefined ? { code } : {}),
    ...(err.stack ? { stack: err.stack } : {}),
    ...(err.cause instanceof Error ? { cause: serializeError(err.cause) } : {}),
  };
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.test(key);
}
