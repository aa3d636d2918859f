import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { PublisherKey } from '../integrity/publishers.ts';
import { readOptional } from '../integrity/tree.ts';
import { readTrustRoot, usableKeys } from '../integrity/trust.ts';
import { INTEGRITY_MODES, type IntegrityMode } from '../integrity/types.ts';
import { UpgradeRefused } from './errors.ts';

/** What the runner needs to know about the installation it upgrades. */
export interface Installation {
  /** The project root: where package.json, kernel/, plugins/... live. */
  root: string;
  product: string;
  version: string;
  /** The .env the server reads (it may not exist). */
  envFile: string;
  /** Its text, or null when there is none. */
  envText: string | null;
  /** The settings the installed version documents (its .env.example), or null without one. */
  knownEnvKeys: Set<string> | null;
  /** Where secrets/, clients/, backups/ live: what the pre-upgrade backup saves. */
  stateDir: string;
  mode: IntegrityMode;
  /** The publisher keys this installation trusts, exactly as its integrity check and license gate do. */
  keys: PublisherKey[];
}

/**
 * Reads the installation below `root`. The .env and state directory are found the way the server finds
 * them (kernel/config/load.ts), with relative paths taken from `root`: ENV_FILE, else STATE_DIR/.env,
 * else <root>/.env; STATE_DIR from the environment, then .env, else the root.
 */
export async function readInstallation(root: string, env: NodeJS.ProcessEnv): Promise<Installation> {
  const pkg = await readPackageJson(root);
  const stateFromEnv = nonEmpty(env.STATE_DIR);
  const envFile = nonEmpty(env.ENV_FILE)
    ? resolve(root, env.ENV_FILE as string)
    : join(stateFromEnv ? resolve(root, stateFromEnv) : root, '.env');
  const envBytes = await readOptional(envFile);
  const envText = envBytes?.toString('utf8') ?? null;
  const fileValues = envText === null ? {} : parseDotenv(envText);
  const state = stateFromEnv ?? nonEmpty(fileValues.STATE_DIR);
  const stateDir = state ? (isAbsolute(state) ? state : resolve(root, state)) : root;

  const modeText = nonEmpty(env.INTEGRITY_MODE) ?? nonEmpty(fileValues.INTEGRITY_MODE) ?? 'enforce';
  if (!(INTEGRITY_MODES as readonly string[]).includes(modeText))
    throw new UpgradeRefused(
      'install',
      `INTEGRITY_MODE "${modeText}" is not one of ${INTEGRITY_MODES.join(', ')}`,
    );
  const mode = modeText as IntegrityMode;
  const keys = usableKeys(await readTrustRoot(root), mode);
  const example = await readOptional(join(root, '.env.example'));
  const knownEnvKeys = example === null ? null : new Set(Object.keys(parseDotenv(example)));
  return {
    root,
    product: pkg.name,
    version: pkg.version,
    envFile,
    envText,
    knownEnvKeys,
    stateDir,
    mode,
    keys,
  };
}

async function readPackageJson(root: string): Promise<{ name: string; version: string }> {
  let pkg: { name?: unknown; version?: unknown };
  try {
    pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as typeof pkg;
  } catch (err) {
    throw new UpgradeRefused(
      'install',
      `${root} is not an installation: cannot read its package.json (${(err as Error).message})`,
    );
  }
  if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string')
    throw new UpgradeRefused('install', `${join(root, 'package.json')} names no product or version`);
  return { name: pkg.name, version: pkg.version };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}
