/**
 * Masks values whose key names a secret, at any depth, before anything is logged or audited.
 * The list errs on the side of hiding: a redacted harmless value costs nothing, a leaked secret does.
 */
const SECRET_KEYS =
  /pass(word|wd|phrase)?$|secret|token|authorization|cookie|private_?key|api_?key|credential|client_secret|^pin$|bearer/i;

export const REDACTED = '[REDACTED]';

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] =
      SECRET_KEYS.test(k) && v !== undefined && v !== null && v !== '' ? REDACTED : redact(v, depth + 1);
  }
  return out;
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.test(key);
}
