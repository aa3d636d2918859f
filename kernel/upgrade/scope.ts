// Which paths an upgrade package may write or delete. The vendor tool selects files with it and the runner
// refuses any package naming something else, so even a correctly signed package can never touch the
// operator's runtime state (.env is merged by its own rules, never replaced).
import { COVERED_DIRS, COVERED_FILES, isSafeRelativePath } from '../integrity/tree.ts';

/** Folders shipped whole: what the integrity manifest covers, plus the documentation. */
export const PACKAGE_DIRS = [...COVERED_DIRS, 'docs'] as const;

/**
 * Single files shipped: the covered ones, plus what rebuilding the image and the next upgrade need
 * (Dockerfile, .dockerignore, the documented settings, the runner and its instructions).
 */
export const PACKAGE_FILES = [
  ...COVERED_FILES,
  'Dockerfile',
  '.dockerignore',
  '.env.example',
  'README.md',
  'upgrade/run_upgrade.ts',
  'upgrade/README.md',
] as const;

/** True when a package may carry (or delete) this project-relative POSIX path. */
export function inPackageScope(path: string): boolean {
  if (!isSafeRelativePath(path)) return false;
  if ((PACKAGE_FILES as readonly string[]).includes(path)) return true;
  return PACKAGE_DIRS.some((dir) => path.startsWith(`${dir}/`));
}
