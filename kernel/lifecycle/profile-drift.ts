import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * The live profiles kept at startup step 3 that differ from the shipped defaults of the same name. A
 * kept profile is the operator's and is never overwritten, so a default tightened by a release (the
 * operator profile losing security-policy writes) would otherwise never reach an existing installation
 * unnoticed; this list is what the start warns about. Unreadable files count as differing.
 */
export function profilesDifferingFromDefaults(
  defaultsDir: string,
  liveDir: string,
  kept: string[],
): string[] {
  const read = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8')) as unknown;
  return kept.filter((file) => {
    try {
      return !isDeepStrictEqual(read(join(defaultsDir, file)), read(join(liveDir, file)));
    } catch {
      return true;
    }
  });
}
