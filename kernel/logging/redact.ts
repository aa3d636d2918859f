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

/** Fields naming a node: no valid one holds an @, so whatever comes before the last @ is a pasted login. */
const HOST_KEYS = /^(host|hostname|address|cluster)$/i;

export const REDACTED = '[REDACTED]';

export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

/** A field that also counts as secret, beyond SECRET_KEYS (the support bundle's broader rule). */
export type SecretField = (key: string, value: unknown) => boolean;

export function redact(value: unknown, depth = 0, alsoSecret?: SecretField): unknown {
  if (typeof value === 'string') return scrubText(value);
  // A Date (bunyan's `time`) is kept whole: it has no own properties to copy.
  if (depth > 8 || value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, alsoSecret));
  if (value instanceof Error) return redact(serializeError(value), depth + 1, alsoSecret);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const secret = SECRET_KEYS.test(k) || (alsoSecret?.(k, v) ?? false);
    out[k] =
      secret && v !== undefined && v !== null && v !== ''
        ? REDACTED
        : HOST_KEYS.test(k) && typeof v === 'string' && v.includes('@')
          ? `${REDACTED}${v.slice(v.lastIndexOf('@'))}`
          : redact(v, depth + 1, alsoSecret);
  }
  return out;
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
