import { chmodSync, statSync } from 'node:fs';

/**
 * Makes a secret file readable by its owner only (0600) when a copy or a restore left it readable by
 * others. Returns the mode it had (octal text) when it was changed, undefined when it was already private.
 */
export function restrictToOwner(path: string): string | undefined {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  chmodSync(path, 0o600);
  return mode.toString(8);
}
