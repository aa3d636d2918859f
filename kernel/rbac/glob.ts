/**
 * Glob matching for allowlists: `*` matches any run of characters, everything else is literal,
 * and the whole subject must match (a pattern `show *` never matches `xshow a`).
 */
const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    const body = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    re = new RegExp(`^${body}$`, 's');
    if (cache.size > 10_000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

export function matchesAny(subject: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => globToRegExp(p).test(subject));
}

/** Allowed when some allow pattern matches and no deny pattern does. */
export function allowedBy(
  subject: string,
  rule: { allow: readonly string[]; deny: readonly string[] },
): boolean {
  return matchesAny(subject, rule.allow) && !matchesAny(subject, rule.deny);
}
