// The system under soak: the lab in this process, and the server in a process of its own (so that its
// memory and file descriptors can be read alone from /proc), licensed for every product, with one
// client per ten sessions whose vault already holds the lab's credentials and pinned host keys, the AXL
// and RIS schemas in the cache, and a profile with the admin's permissions but rate limits no soak
// reaches. Linux only (/proc).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Lab, LabOptions } from '../../lab/index.ts';
import { prefetchSchemas } from '../../lab/demo/prefetch-schemas.ts';
import { seedVault } from '../../lab/demo/seed-vault.ts';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { startTestLab } from '../../test/lab/helpers.ts';
import { pinnedFetch, rawHttpsRequest } from '../../test/helpers/https-client.ts';
import { seedServerKeys } from '../../test/helpers/keys.ts';
import { writeTestLicense } from '../../test/helpers/license.ts';
import { startupToken } from '../../test/helpers/mcp-client.ts';
import { tempStateDir } from '../../test/helpers/state-dir.ts';

export const SOAK_PROFILE = 'soak';

export interface ServerProbe {
  /** VmRSS before and after a full garbage collection, in KiB. */
  rssKb: number;
  rssAfterGcKb: number;
  /** Open file descriptors of the server process. */
  fds: number;
  /** MCP sessions the server holds (ucmcp_mcp_sessions). */
  sessions: number;
  /** V8 heap in use after the GC, in KiB (ucmcp_nodejs_heap_size_used_bytes). */
  heapUsedKb: number;
}

export interface SoakStack {
  lab: Lab;
  url: string;
  pid: number;
  /** The server's TLS certificate (what its clients trust). */
  certPem: string;
  /** Client names, each with its startup token. */
  clients: { name: string; token: string }[];
  fetch: () => ReturnType<typeof pinnedFetch>;
  /** The server's MCP session count, from GET /metrics. */
  sessions(): Promise<number>;
  /**
   * Reads the server's state. The file descriptor count is read once it is steady (the same for 2 s,
   * within 10 s), or as soon as it is at most `fdsAtMost`: sockets that outlive their use close on their
   * own timers (the lab ends idle keep-alive connections after 5 s), a leaked descriptor never does.
   */
  probe(fdsAtMost?: number): Promise<ServerProbe>;
  /** True while the server process runs. */
  alive(): boolean;
  /** Stops the server (SIGTERM; resolves to its exit code) and the lab, and removes the state. */
  stop(): Promise<number | null>;
}

/** The admin profile with every rate limit raised out of reach, over a one-second window (little to keep). */
function soakProfile(): Record<string, unknown> {
  const admin = JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles/_default/admin.json'), 'utf8')) as {
    rateLimits: Record<string, Record<string, unknown>>;
  };
  const rateLimits = Object.fromEntries(
    Object.entries(admin.rateLimits).map(([module, services]) => [
      module,
      Object.fromEntries(
        [...Object.keys(services), 'default'].map((s) => [s, { limit: 1_000_000, windowSeconds: 1 }]),
      ),
    ]),
  );
  return { ...admin, name: SOAK_PROFILE, description: 'Soak: admin, no reachable rate limit', rateLimits };
}

function waitForUrl(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) =>
      reject(new Error(`the server exited during startup (${code}): ${stderr()}`)),
    );
  });
}

function rssKb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function steadyFds(pid: number, atMost: number | undefined): Promise<number> {
  const count = () => readdirSync(`/proc/${pid}/fd`).length;
  const readings = [count()];
  for (let i = 0; i < 20; i++) {
    const last = readings.at(-1) as number;
    if (atMost !== undefined && last <= atMost) return last;
    if (readings.length >= 5 && readings.slice(-5).every((n) => n === last)) return last;
    await pause(500);
    readings.push(count());
  }
  return readings.at(-1) as number;
}

export async function startSoakStack(o: { clients: number; lab?: LabOptions }): Promise<SoakStack> {
  // The lab's own RisPort limit (the enterprise parameter, 15 a minute) would refuse a soak's queries.
  const lab = await startTestLab({ risRateLimitPerMinute: 1_000_000, ...o.lab });
  const state = tempStateDir('ucmcp-soak-');
  let child: ChildProcess | undefined;
  try {
    seedServerKeys(state.dir);
    await writeTestLicense(state.dir, { products: ['cucm', 'imp', 'cuc'] });
    mkdirSync(join(state.dir, 'profiles'), { recursive: true });
    writeFileSync(join(state.dir, 'profiles', `${SOAK_PROFILE}.json`), JSON.stringify(soakProfile()));
    const names = Array.from({ length: o.clients }, (_, i) => `soak${i + 1}`);
    await seedVault(state.dir, names, lab.info);
    await prefetchSchemas(state.dir, lab.info);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      STATE_DIR: state.dir,
      SERVER_HOST: '127.0.0.1',
      SERVER_PORT: '0',
      ENV_FILE: '',
      LOGGING_CONSOLE_ENABLED: '0',
      INTEGRITY_MODE: 'warn',
      AUTH_BCRYPT_COST: '4',
      AUTH_CLIENTS: names.map((n) => `${n}:${SOAK_PROFILE}:cucm+imp+cuc`).join(','),
    };
    delete env.NODE_TEST_CONTEXT;
    const proc = spawn(
      process.execPath,
      [
        '--expose-gc',
        // BENCH_SERVER_CPU_PROF=<dir>: the server writes a CPU profile there when it stops.
        ...(process.env.BENCH_SERVER_CPU_PROF
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_CPU_PROF}`]
          : []),
        '--import',
        'tsx',
        join(PROJECT_ROOT, 'bench/support/licensed-server.ts'),
      ],
      { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    let err = '';
    proc.stderr?.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    let gcDone: (() => void) | undefined;
    proc.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('gc done')) gcDone?.();
    });
    const url = await waitForUrl(proc, () => err);
    const pid = proc.pid as number;
    const certPem = readFileSync(join(state.dir, 'secrets', 'tls_cert.pem'), 'utf8');

    const metric = async (): Promise<{ sessions: number; heapUsedKb: number }> => {
      const res = await rawHttpsRequest(`${url}/metrics`, { caPem: certPem });
      const value = (name: string): number => {
        const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(res.body);
        if (res.status !== 200 || !m) throw new Error(`/metrics has no ${name} (${res.status})`);
        return Number(m[1]);
      };
      return {
        sessions: value('ucmcp_mcp_sessions'),
        heapUsedKb: Math.round(value('ucmcp_nodejs_heap_size_used_bytes') / 1024),
      };
    };
    const fullGc = async (): Promise<void> => {
      const done = new Promise<void>((r) => (gcDone = r));
      proc.kill('SIGUSR2');
      await Promise.race([done, pause(5_000)]);
      gcDone = undefined;
    };
    return {
      lab,
      url,
      pid,
      certPem,
      clients: names.map((name) => ({ name, token: startupToken(state.dir, name) })),
      fetch: () => pinnedFetch(certPem),
      sessions: async () => (await metric()).sessions,
      async probe(fdsAtMost) {
        if (proc.exitCode !== null || proc.signalCode !== null)
          throw new Error(`the server process ended (${proc.exitCode ?? proc.signalCode}): ${err}`);
        const before = rssKb(pid);
        await fullGc();
        const after = rssKb(pid);
        const m = await metric();
        // Read after the /metrics request, whose connection closes with its answer ("Connection: close").
        return { rssKb: before, rssAfterGcKb: after, fds: await steadyFds(pid, fdsAtMost), ...m };
      },
      alive: () => proc.exitCode === null && proc.signalCode === null,
      async stop() {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
        const code = await exited;
        await lab.stop();
        state.cleanup();
        return code;
      },
    };
  } catch (e) {
    child?.kill('SIGKILL');
    await lab.stop();
    state.cleanup();
    throw e;
  }
}
