// `node --import ./kernel/loader/register.mjs kernel/main.ts`: the server's TypeScript loader. Each .ts
// file runs as esbuild's transpile of the bytes on disk, the very bytes the integrity manifest signs;
// the transpile is cached in STATE_DIR/cache/transpiled under an HMAC (transpile-cache.mjs), so a warm
// start skips both esbuild and tsx's resolution and loader round trips. Plain JavaScript: nothing can
// load TypeScript before this runs. Workers and child processes that need TypeScript register tsx (or
// this file) themselves.
import { existsSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';

const ROOT = resolve(import.meta.dirname, '../..');

function nonEmpty(v) {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/**
 * The state directory as kernel/config/load.ts finds it (environment, then .env, then the project
 * root); the loader runs before the configuration is read, so it repeats that rule here.
 */
export function stateDir(env = process.env) {
  const fromEnv = nonEmpty(env.STATE_DIR);
  const base = fromEnv ? resolve(fromEnv) : ROOT;
  let fromFile;
  if (!fromEnv) {
    const envFile = nonEmpty(env.ENV_FILE) ? resolve(env.ENV_FILE) : join(base, '.env');
    try {
      if (existsSync(envFile)) fromFile = nonEmpty(parseDotenv(readFileSync(envFile)).STATE_DIR);
    } catch {
      // The configuration step reports an unreadable .env; the loader then caches under the root.
    }
  }
  const configured = fromEnv ?? fromFile;
  if (!configured) return base;
  return isAbsolute(configured) ? configured : resolve(ROOT, configured);
}

function compilerOptions() {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions ?? {};
  } catch {
    return {};
  }
}

const state = stateDir();
// As tsx does: stack traces name the .ts file and line (esbuild writes an inline source map).
process.setSourceMapsEnabled(true);
register('./hooks.mjs', import.meta.url, {
  data: {
    root: ROOT,
    secretsDir: join(state, 'secrets'),
    cacheDir: join(state, 'cache', 'transpiled'),
    compilerOptions: compilerOptions(),
  },
});
