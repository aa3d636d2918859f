import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppLogger } from '../logging/app-log.ts';
import { PROJECT_ROOT } from '../paths.ts';
import type { PluginDefinition, PluginServices } from '../sdk/define.ts';
import { checkDeclaration } from './declaration.ts';
import type { PluginRegistry } from './registry.ts';

/** Decides whether a bundle's files may run (the integrity check); verification gives a status, not an exception. */
export type BundleGate = (id: string, folder: string) => { ok: true } | { ok: false; reason: string };

export interface LoadResult {
  loaded: string[];
  refused: { folder: string; reason: string }[];
}

/**
 * Discovers every bundle folder in `pluginsDirs`, checks it with the gate before importing any of its
 * code, checks the declaration (names, kernel range), orders bundles by their dependencies, runs each
 * setup and registers it. A refused bundle is logged with a clear line and never half-registered.
 */
export async function loadPlugins(opts: {
  /** Folders holding bundle folders: the shipped plugins/, and in tests a fixture folder too. */
  pluginsDirs: string[];
  registry: PluginRegistry;
  gate: BundleGate;
  log: AppLogger;
  services: (def: PluginDefinition) => PluginServices;
  /** The product's own plugins folder, where test-only bundles are refused (default: plugins/). */
  shippedDir?: string;
}): Promise<LoadResult> {
  const { registry, log } = opts;
  const result: LoadResult = { loaded: [], refused: [] };
  const refuse = (folder: string, reason: string): void => {
    result.refused.push({ folder, reason });
    log.error({ plugin: folder, reason }, `plugin bundle ${folder} refused: ${reason}`);
  };

  const declared: { folder: string; dir: string; def: PluginDefinition }[] = [];
  const folders = opts.pluginsDirs.flatMap((root) =>
    readdirSync(root)
      .sort()
      .map((folder) => ({ root, folder })),
  );
  for (const { root, folder } of folders) {
    const dir = join(root, folder);
    if (!statSync(dir).isDirectory() || folder.startsWith('.') || folder.startsWith('_')) continue;
    const entry = join(dir, 'index.ts');
    if (!existsSync(entry)) {
      refuse(folder, 'no index.ts');
      continue;
    }
    const verdict = opts.gate(folder, dir);
    if (!verdict.ok) {
      refuse(folder, verdict.reason);
      continue;
    }
    try {
      const mod = (await import(pathToFileURL(entry).href)) as { default?: unknown };
      const def = checkDeclaration(mod.default, folder);
      if (def.id !== folder) throw new Error(`declares id ${def.id} but lives in plugins/${folder}`);
      if (def.module === 'test' && samePath(root, opts.shippedDir ?? join(PROJECT_ROOT, 'plugins')))
        throw new Error('module test is for test-only bundles; the shipped plugins folder refuses it');
      declared.push({ folder, dir, def });
    } catch (err) {
      refuse(folder, (err as Error).message);
    }
  }

  for (const { folder, dir, def } of dependencyOrder(declared, refuse)) {
    const missing = def.requires.filter((r) => !registry.plugins.has(r));
    if (missing.length > 0) {
      refuse(folder, `requires ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not loaded`);
      continue;
    }
    try {
      const shared = def.setup ? await def.setup(opts.services(def)) : undefined;
      registry.add({ def, folder, dir, shared, active: def.product === null });
      result.loaded.push(def.id);
      log.info(
        { plugin: def.id, version: def.version, tools: def.tools.length },
        `plugin ${def.id} ${def.version} registered`,
      );
    } catch (err) {
      refuse(folder, (err as Error).message);
    }
  }
  return result;
}

/**
 * Whether two folders are one (links resolved). Test-only bundles (module `test`, e.g. the MCP
 * conformance fixture) load only from the extra folders a test hands the kernel, never from the
 * product's own plugins folder.
 */
function samePath(a: string, b: string): boolean {
  const real = (p: string): string => (existsSync(p) ? realpathSync(p) : resolve(p));
  return real(a) === real(b);
}

/** Topological order by `requires`; a cycle refuses every plugin in it. */
function dependencyOrder<T extends { folder: string; def: PluginDefinition }>(
  items: T[],
  refuse: (folder: string, reason: string) => void,
): T[] {
  const byId = new Map(items.map((i) => [i.def.id, i]));
  const out: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): boolean => {
    const s = state.get(id);
    if (s === 'done') return true;
    if (s === 'visiting') {
      refuse(byId.get(id)?.folder ?? id, `dependency cycle: ${[...path, id].join(' -> ')}`);
      return false;
    }
    const item = byId.get(id);
    if (!item) return true; // a missing dependency is reported when the dependant is registered
    state.set(id, 'visiting');
    const ok = item.def.requires.every((r) => visit(r, [...path, id]));
    state.set(id, 'done');
    if (ok) out.push(item);
    return ok;
  };
  for (const i of items) visit(i.def.id, []);
  return out;
}
