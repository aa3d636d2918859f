import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface PackageJson {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/**
 * Dependency versions: what package.json asks for and what node_modules actually holds (they differ
 * after a partial install, which is exactly what support needs to see).
 */
export function dependenciesSection(projectRoot: string): Record<string, unknown> {
  const pkg = readJson(join(projectRoot, 'package.json')) ?? {};
  const describe = (deps: Record<string, string> | undefined): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(deps ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, wanted]) => [
          name,
          {
            wanted,
            installed: readJson(join(projectRoot, 'node_modules', name, 'package.json'))?.version ?? null,
          },
        ]),
    );
  return { dependencies: describe(pkg.dependencies), devDependencies: describe(pkg.devDependencies) };
}

function readJson(path: string): PackageJson | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
  } catch {
    return null;
  }
}
