// Finds the operator commands: every module in kernel/cli/commands/ that exports `command`. Discovered
// at run time so that adding a command is adding a file, with no list to edit. Loading one command by
// name imports only its own file, so a broken sibling never stops `update_manifest --check` (the
// container build runs it) or any other command.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CliCommand } from './command.ts';

export const COMMANDS_DIR = join(import.meta.dirname, 'commands');

/** A command's canonical name: the spec spells them with underscores; hyphens are accepted too. */
export function canonicalName(name: string): string {
  return name.trim().toLowerCase().replaceAll('-', '_');
}

/** The file a command is expected in: `update_manifest` -> `update-manifest.ts`. */
export function commandFile(name: string): string {
  return `${canonicalName(name).replaceAll('_', '-')}.ts`;
}

export interface CommandEntry {
  file: string;
  command?: CliCommand;
  /** Why the module could not be used (import failed, no `command` export). */
  error?: string;
}

function isCliCommand(v: unknown): v is CliCommand {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Partial<CliCommand>;
  return (
    typeof c.name === 'string' &&
    typeof c.summary === 'string' &&
    typeof c.help === 'string' &&
    Array.isArray(c.options) &&
    typeof c.run === 'function'
  );
}

async function importCommand(path: string): Promise<CliCommand> {
  const mod = (await import(pathToFileURL(path).href)) as { command?: unknown };
  if (!isCliCommand(mod.command)) throw new Error('exports no valid `command`');
  return mod.command;
}

function moduleFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.test.ts'))
    .sort();
}

/** Every command module in `dir`, sorted by command name; broken modules are listed with their error. */
export async function listCommands(dir = COMMANDS_DIR): Promise<CommandEntry[]> {
  const entries: CommandEntry[] = [];
  for (const file of moduleFiles(dir)) {
    try {
      entries.push({ file, command: await importCommand(join(dir, file)) });
    } catch (err) {
      entries.push({ file, error: (err as Error).message });
    }
  }
  const key = (e: CommandEntry): string => e.command?.name ?? e.file;
  return entries.sort((a, b) => key(a).localeCompare(key(b)));
}

/**
 * The command called `name`, or undefined when there is none. Tries the file named after it first; only
 * when a command lives in a differently named file does it import the whole directory to find it.
 */
export async function loadCommand(name: string, dir = COMMANDS_DIR): Promise<CliCommand | undefined> {
  const wanted = canonicalName(name);
  if (!/^[a-z0-9_]+$/.test(wanted)) return undefined;
  const direct = join(dir, commandFile(wanted));
  if (existsSync(direct)) {
    const command = await importCommand(direct);
    if (canonicalName(command.name) === wanted) return command;
  }
  const all = await listCommands(dir);
  return all.find((e) => e.command && canonicalName(e.command.name) === wanted)?.command;
}
