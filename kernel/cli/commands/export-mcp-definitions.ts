// export_mcp_definitions: every MCP tool, prompt and resource the server publishes, as JSON (functional
// spec, operator scripts). Built by the same code path as the committed tool snapshots
// (kernel/plugins/definitions.ts), and the bundles pass the same integrity gate as at startup, so the
// export shows what this installation would serve, never code the server would refuse to run.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import bunyan from 'bunyan';
import { bundleLoadable, bundleStatus, verifyTree } from '../../integrity/verify.ts';
import type { IntegrityMode } from '../../integrity/types.ts';
import { PACKAGE_NAME, PACKAGE_VERSION, PROJECT_ROOT } from '../../paths.ts';
import { exportDefinitions } from '../../plugins/definitions.ts';
import { loadPlugins, type BundleGate, type LoadResult } from '../../plugins/loader.ts';
import { PluginRegistry } from '../../plugins/registry.ts';
import type { KernelServices } from '../../sdk/kernel-services.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { rejectPositionals } from '../dispatch.ts';
import { progressCallback } from '../progress.ts';
import { integrityMode, readSettings } from '../settings.ts';

async function gateFor(io: CliIo, mode: IntegrityMode): Promise<BundleGate> {
  // warn mode loads every bundle whatever the check finds: no need to hash the tree.
  if (mode === 'warn') return () => ({ ok: true });
  const { report } = await verifyTree(PROJECT_ROOT, { onProgress: progressCallback(io, 'verifying') });
  return (id) =>
    bundleLoadable(report, id, mode)
      ? { ok: true }
      : { ok: false, reason: `integrity ${bundleStatus(report, id)} (INTEGRITY_MODE=enforce)` };
}

/**
 * Registers the shipped bundles for their definitions only: setup runs (some tools' schemas come from
 * it) with no kernel behind it and directories that do not exist, so nothing is contacted or written.
 */
async function loadShipped(gate: BundleGate): Promise<{ registry: PluginRegistry; load: LoadResult }> {
  const registry = new PluginRegistry();
  const silent = bunyan.createLogger({ name: 'export_mcp_definitions', streams: [] });
  const load = await loadPlugins({
    pluginsDirs: [join(PROJECT_ROOT, 'plugins')],
    registry,
    gate,
    log: silent,
    services: () => ({
      log: silent,
      dirs: { reports: '/nonexistent/reports', schemaCache: '/nonexistent/schema-cache' },
      kernel: {} as KernelServices,
      settings: { chromiumPath: '/nonexistent/chromium', reportMaxBytes: 1024 },
    }),
  });
  for (const p of registry.plugins.values()) {
    try {
      await p.def.teardown?.(p.shared);
    } catch {
      // Nothing was opened for a definitions-only load; a teardown error changes nothing exported.
    }
  }
  return { registry, load };
}

export const command: CliCommand = {
  name: 'export_mcp_definitions',
  summary: 'export all MCP tools, prompts and resources to JSON',
  help: `Writes { server, tools, prompts, resources, resourceTemplates }: each tool with its name, title,
description, module, plugin, access rule, service, annotations and input (and output) JSON schema,
exactly as committed in test/__toolsnaps__/; each prompt with its arguments; every resource the server
serves with its URI and MIME type, as resources/list shows them (each member of a template as a
concrete resource); and the URI templates, as resources/templates/list shows them. Sorted by name, no
timestamp: two exports of the same tree are identical, so they diff cleanly.

Product tools are listed whatever the license: the license only hides them from a client at run time.
Plugin bundles pass the integrity check as at startup: with INTEGRITY_MODE=enforce (the default) a
bundle that is not validly signed is left out and the command fails; --mode warn exports everything
(development checkouts).

Examples:
  node --import tsx scripts/export_mcp_definitions.ts --output mcp-definitions.json
  node --import tsx scripts/export_mcp_definitions.ts --mode warn | jq '.tools[].name'

Exit codes: 0 exported; 1 a bundle was refused (nothing written) or the file could not be written;
2 usage error.`,
  options: [
    { name: 'output', short: 'o', type: 'string', description: 'write to this file (default: stdout)' },
    {
      name: 'mode',
      type: 'string',
      description: 'enforce | warn: the integrity gate (default: INTEGRITY_MODE, else enforce)',
    },
  ],

  async run({ values, positionals }, io) {
    const stray = rejectPositionals(this.name, positionals, io);
    if (stray !== undefined) return stray;
    const mode = integrityMode(io, this.name, readSettings(io, this.name), values.mode as string | undefined);
    if (mode === undefined) return EXIT.USAGE;

    const { registry, load } = await loadShipped(await gateFor(io, mode));
    if (load.refused.length > 0) {
      for (const r of load.refused) io.err(`${this.name}: bundle ${r.folder} refused: ${r.reason}\n`);
      io.err(
        `${this.name}: the export would be incomplete; nothing written` +
          (mode === 'enforce' ? ' (a development checkout: --mode warn)\n' : '\n'),
      );
      return EXIT.FAILED;
    }
    const defs = exportDefinitions(registry);
    const server = { name: PACKAGE_NAME, version: PACKAGE_VERSION };
    const text = `${JSON.stringify({ server, ...defs }, null, 2)}\n`;
    const output = values.output as string | undefined;
    if (output === undefined) {
      io.out(text);
      return EXIT.OK;
    }
    const file = resolve(io.cwd, output);
    try {
      writeFileSync(file, text);
    } catch (err) {
      io.err(`${this.name}: cannot write ${file}: ${(err as Error).message}\n`);
      return EXIT.FAILED;
    }
    const { tools, prompts, resources, resourceTemplates } = defs;
    io.err(
      `${tools.length} tools, ${prompts.length} prompts, ${resources.length} resources ` +
        `(${resourceTemplates.length} templates) -> ${file}\n`,
    );
    return EXIT.OK;
  },
};
