// The settings an operator command reads, as the server reads them (environment first, then .env):
// `operatorSettings` (kernel/support/settings.ts) with a configuration error reported, not thrown, so a
// diagnostic command still answers when an unrelated setting is wrong, and a raw `value` lookup.
import { operatorSettings } from '../support/settings.ts';
import type { Config } from '../config/schema.ts';
import { INTEGRITY_MODES, type IntegrityMode } from '../integrity/types.ts';
import type { CliIo } from './command.ts';

export interface CommandSettings {
  /** Absolute state directory. */
  stateDir: string;
  /** The parsed configuration; undefined when it is not usable (defaults apply). */
  config: Config | undefined;
  /** A raw setting: the environment's value, else .env's. */
  value(key: string): string | undefined;
}

export function readSettings(io: CliIo, command: string, stateDirOption?: string): CommandSettings {
  const s = operatorSettings(io, stateDirOption);
  if (s.configError !== null)
    io.err(`${command}: configuration not usable (${s.configError}); using defaults\n`);
  const value = (key: string): string | undefined => {
    const v = io.env[key]?.trim() || s.dotenv[key]?.trim();
    return v === '' ? undefined : v;
  };
  return { stateDir: s.stateDir, config: s.config ?? undefined, value };
}

/** `--mode`, else INTEGRITY_MODE, else enforce; undefined (after a message) when not a known mode. */
export function integrityMode(
  io: CliIo,
  command: string,
  settings: CommandSettings,
  option: string | undefined,
): IntegrityMode | undefined {
  const mode = option ?? settings.value('INTEGRITY_MODE') ?? 'enforce';
  if ((INTEGRITY_MODES as readonly string[]).includes(mode)) return mode as IntegrityMode;
  io.err(`${command}: mode must be one of ${INTEGRITY_MODES.join(', ')}\n`);
  return undefined;
}
