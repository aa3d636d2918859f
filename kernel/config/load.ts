import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError } from '../errors/index.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { CONFIG_KEYS, configSchema, type Config } from './schema.ts';

export interface LoadedConfig {
  config: Config;
  /** Absolute state directory. */
  stateDir: string;
  /** The .env file read, or null when none exists. */
  envFile: string | null;
  /** Keys found in .env that the server does not know (reported once logging is up). */
  unknownKeys: string[];
}

const SECRET_KEY = /PASSWORD|SECRET|TOKEN/i;

/**
 * Startup step 1. Settings come from the process environment first, then `.env` (an exported variable
 * wins). `.env` is read from ENV_FILE when set, else from the state directory. An empty value counts as
 * unset. Throws ConfigError naming the key and what is wrong with it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const stateFromEnv = nonEmpty(env.STATE_DIR);
  const baseDir = stateFromEnv ? resolve(stateFromEnv) : PROJECT_ROOT;
  const envFile = nonEmpty(env.ENV_FILE) ? resolve(env.ENV_FILE as string) : join(baseDir, '.env');

  let fileValues: Record<string, string> = {};
  const envFileExists = existsSync(envFile);
  if (envFileExists) {
    try {
      fileValues = parseDotenv(readFileSync(envFile));
    } catch (err) {
      throw new ConfigError(`cannot read ${envFile}: ${(err as Error).message}`);
    }
  } else if (nonEmpty(env.ENV_FILE)) {
    throw new ConfigError(`ENV_FILE: file not found: ${envFile}`);
  }

  const known = new Set<string>(CONFIG_KEYS);
  const merged: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = nonEmpty(env[key]) ?? nonEmpty(fileValues[key]);
    if (value !== undefined) merged[key] = value;
  }
  const unknownKeys = Object.keys(fileValues).filter((k) => !known.has(k));

  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? 'configuration');
    const raw = merged[key];
    const shown =
      raw === undefined ? '' : SECRET_KEY.test(key) ? ' (value hidden)' : ` (got ${JSON.stringify(raw)})`;
    throw new ConfigError(`${key}: ${issue?.message ?? 'invalid'}${shown}`);
  }

  const config = parsed.data;
  const stateDir = config.STATE_DIR
    ? isAbsolute(config.STATE_DIR)
      ? config.STATE_DIR
      : resolve(PROJECT_ROOT, config.STATE_DIR)
    : baseDir;
  return { config, stateDir, envFile: envFileExists ? envFile : null, unknownKeys };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}
