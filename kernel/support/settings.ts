import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { CliIo } from '../cli/command.ts';
import { loadConfig } from '../config/load.ts';
import type { Config } from '../config/schema.ts';
import { PROJECT_ROOT, statePaths, type StatePaths } from '../paths.ts';

/** What an offline operator command knows about the installation it works on. */
export interface OperatorSettings {
  stateDir: string;
  paths: StatePaths;
  /** The validated settings, or null when .env does not validate (`configError` says why). */
  config: Config | null;
  configError: string | null;
  /** The .env file in force (ENV_FILE, else STATE_DIR/.env), or null when there is none. */
  envFile: string | null;
  /** Raw values of that file (for settings an invalid configuration could not give). */
  dotenv: Record<string, string>;
}

/**
 * Resolves the state directory and settings the way the server does (process environment first, then
 * .env), with `--state-dir` winning. An invalid .env does not stop an operator command: a diagnostic or
 * recovery tool must still work on a broken installation, so the error is returned instead of thrown.
 */
export function operatorSettings(io: Pick<CliIo, 'env' | 'cwd'>, stateDirOption?: string): OperatorSettings {
  const env: NodeJS.ProcessEnv = { ...io.env };
  if (stateDirOption) env.STATE_DIR = resolve(io.cwd, stateDirOption);
  else if (env.STATE_DIR && !isAbsolute(env.STATE_DIR)) env.STATE_DIR = resolve(io.cwd, env.STATE_DIR);
  if (env.ENV_FILE && !isAbsolute(env.ENV_FILE)) env.ENV_FILE = resolve(io.cwd, env.ENV_FILE);

  try {
    const loaded = loadConfig(env);
    // --state-dir names the installation explicitly; a STATE_DIR inside its .env must not move it.
    const stateDir = stateDirOption ? (env.STATE_DIR as string) : loaded.stateDir;
    return {
      stateDir,
      paths: statePaths(stateDir),
      config: loaded.config,
      configError: null,
      envFile: loaded.envFile,
      dotenv: readDotenv(loaded.envFile),
    };
  } catch (err) {
    const stateDir = env.STATE_DIR?.trim() ? env.STATE_DIR : PROJECT_ROOT;
    const envFile = env.ENV_FILE?.trim() ? env.ENV_FILE : join(stateDir, '.env');
    const present = existsSync(envFile) ? envFile : null;
    return {
      stateDir,
      paths: statePaths(stateDir),
      config: null,
      configError: (err as Error).message,
      envFile: present,
      dotenv: readDotenv(present),
    };
  }
}

function readDotenv(file: string | null): Record<string, string> {
  if (!file) return {};
  try {
    return parseDotenv(readFileSync(file));
  } catch {
    return {};
  }
}
