// The few server settings operator commands need (STATE_DIR, INTEGRITY_MODE), read as the server reads
// them: the environment first, then .env. A diagnostic command still answers when an unrelated setting
// is wrong, so a configuration error is reported and defaults are used.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { loadConfig } from '../config/load.ts';
import type { Config } from '../config/schema.ts';
import { INTEGRITY_MODES, type IntegrityMode } from '../integrity/types.ts';
import { PROJECT_ROOT } from '../paths.ts';
import type { CliIo } from './command.ts';

export interface OperatorSettings {
  /** Absolute state directory. */
  stateDir: string;
  /** The parsed configuration; undefined when it is not usable (defaults apply). */
  config: Config | undefined;
  /** A raw setting: the environment's value, else .env's. */
  value(key: string): string | undefined;
}

export function readSettings(io: CliIo, command: string): OperatorSettings {
  let dotenv: Record<string, string> = {};
  let stateDir: string | undefined;
  let config: Config | undefined;
  try {
    const loaded = loadConfig(io.env);
    dotenv = loaded.envFile ? parseDotenv(readFileSync(loaded.envFile)) : {};
    stateDir = loaded.stateDir;
    config = loaded.config;
  } catch (err) {
    io.err(`${command}: configuration not usable (${(err as Error).message}); using defaults\n`);
  }
  const value = (key: string): string | undefined => {
    const v = io.env[key]?.trim() || dotenv[key]?.trim();
    return v === '' ? undefined : v;
  };
  return { stateDir: stateDir ?? resolve(io.env.STATE_DIR || PROJECT_ROOT), config, value };
}

/** `--mode`, else INTEGRITY_MODE, else enforce; undefined (after a message) when not a known mode. */
export function integrityMode(
  io: CliIo,
  command: string,
  settings: OperatorSettings,
  option: string | undefined,
): IntegrityMode | undefined {
  const mode = option ?? settings.value('INTEGRITY_MODE') ?? 'enforce';
  if ((INTEGRITY_MODES as readonly string[]).includes(mode)) return mode as IntegrityMode;
  io.err(`${command}: mode must be one of ${INTEGRITY_MODES.join(', ')}\n`);
  return undefined;
}
