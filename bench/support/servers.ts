// The two servers the benchmarks compare, each in its own process: the kernel as kernel/main.ts starts
// it (every shipped plugin, licensed for every product, bench/support/licensed-server.ts) on a prepared
// state directory, and the bare official-SDK server (bench/support/bare-mcp-server.ts) with the same
// TLS certificate and key. Both on 127.0.0.1.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { seedServerKeys } from '../../test/helpers/keys.ts';
import { writeTestLicense } from '../../test/helpers/license.ts';
import { tempStateDir } from '../../test/helpers/state-dir.ts';
import { childEnv, spawnOnServerLoader, spawnTsx, stop, waitForLine } from './proc.ts';

export const BENCH_CLIENT = 'bench';

export interface KernelState {
  dir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** A bench profile: admin, with rate limits no run can reach (the bench measures the path, not the limit). */
export function writeBenchProfile(state: string): void {
  const admin = JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles/_default/admin.json'), 'utf8')) as {
    rateLimits: Record<string, Record<string, unknown>>;
  };
  const huge = { limit: 1_000_000, windowSeconds: 1 };
  const rateLimits = Object.fromEntries(
    Object.entries({ common: {}, infra: {}, ...admin.rateLimits }).map(([module, services]) => [
      module,
      Object.fromEntries([...Object.keys(services), 'default'].map((s) => [s, huge])),
    ]),
  );
  mkdirSync(join(state, 'profiles'), { recursive: true });
  writeFileSync(
    join(state, 'profiles/bench.json'),
    JSON.stringify({ ...admin, name: 'bench', description: 'Bench: admin, no reachable limit', rateLimits }),
  );
}

/** A state directory with the server keys, a license for every product and the bench client's profile. */
export async function prepareKernelState(port = 0): Promise<KernelState> {
  const state = tempStateDir('ucmcp-bench-');
  seedServerKeys(state.dir);
  writeBenchProfile(state.dir);
  await writeTestLicense(state.dir, { products: ['cucm', 'imp', 'cuc'] });
  const env = childEnv({
    STATE_DIR: state.dir,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(port),
    AUTH_CLIENTS: `${BENCH_CLIENT}:bench:cucm+imp+cuc`,
    LOGGING_CONSOLE_ENABLED: '0',
    ENV_FILE: '',
    AUTH_BCRYPT_COST: '4',
    BACKUP_ENABLED: '0',
    // A development checkout has no signed manifest; the integrity mode does not touch the call path.
    INTEGRITY_MODE: 'warn',
  });
  return { dir: state.dir, env, cleanup: state.cleanup };
}

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  url: string;
  stop(): Promise<void>;
}

export async function startKernelProcess(state: KernelState): Promise<RunningServer> {
  const child = spawnOnServerLoader('bench/support/licensed-server.ts', state.env);
  try {
    const url = await waitForLine(child, /listening on (https:\/\/\S+)/);
    return { child, pid: child.pid as number, url, stop: () => stop(child) };
  } catch (err) {
    await stop(child);
    throw err;
  }
}

/** What clients trust: the state's local CA, or the server certificate when it has none. */
export function caFile(state: KernelState): string {
  const ca = join(state.dir, 'secrets/ca_cert.pem');
  return existsSync(ca) ? ca : join(state.dir, 'secrets/tls_cert.pem');
}

export function benchToken(state: KernelState): string {
  return readFileSync(join(state.dir, 'clients', BENCH_CLIENT, 'secrets/.token'), 'utf8').trim();
}

/** The bare SDK server with the kernel state's certificate and key (the same TLS cost on both sides). */
export async function startBareProcess(state: KernelState, port = 0): Promise<RunningServer> {
  const child = spawnTsx('bench/support/bare-mcp-server.ts', [
    join(state.dir, 'secrets/tls_cert.pem'),
    join(state.dir, 'secrets/tls_key.pem'),
    String(port),
  ]);
  try {
    const p = await waitForLine(child, /PORT (\d+)/);
    return { child, pid: child.pid as number, url: `https://127.0.0.1:${p}`, stop: () => stop(child) };
  } catch (err) {
    await stop(child);
    throw err;
  }
}
