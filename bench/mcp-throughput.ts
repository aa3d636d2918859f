// Tool-call throughput and latency through the whole path (TLS, bearer JWT, IP guard, RBAC, rate limit,
// audit, metrics) versus the bare MCP SDK v2 serving the same trivial tool over HTTPS on the same
// revision, measured in the same run, alternating A/B rounds so that machine noise hits both alike.
// Both revisions of the one /mcp endpoint: 2025-11-25 (sessions) with the v1 SDK client, 2026-07-28
// (stateless, per-request envelope) with the SDK v2 client pinned to it.
//   node --import tsx bench/mcp-throughput.ts [--revision 2025-11-25|2026-07-28|both] [--sessions 16]
//                                             [--seconds 6] [--rounds 2]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  type FetchLike as FetchLikeV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike as FetchLikeV1 } from '@modelcontextprotocol/sdk/shared/transport.js';
import { pinnedFetch } from '../test/helpers/https-client.ts';
import { seedServerKeys } from '../test/helpers/keys.ts';

const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
type Revision = (typeof REVISIONS)[number];

const { values } = parseArgs({
  options: {
    revision: { type: 'string', default: 'both' },
    sessions: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '2' },
  },
});
const SESSIONS = Number(values.sessions);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
if (values.revision !== 'both' && !REVISIONS.includes(values.revision as Revision)) {
  throw new Error(`--revision must be ${REVISIONS.join(', ')} or both, not ${values.revision}`);
}
const SELECTED: readonly Revision[] = values.revision === 'both' ? REVISIONS : [values.revision as Revision];
const ROOT = join(import.meta.dirname, '..');

function waitForLine(child: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith(prefix));
      if (line) resolve(line.slice(prefix.length).trim());
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
}

interface LoadResult {
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Server process CPU time per call (user + system), in microseconds. */
  cpuUsPerCall: number;
}

/** CPU time (user + system) a process has used, in microseconds, from /proc (Linux). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / 100; // USER_HZ is 100 on Linux
}

type Fetch = ReturnType<typeof pinnedFetch>;

interface BenchClient {
  echo(text: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * A client of the given revision, connected: 2025-11-25 is the v1 SDK client (initialize, a session,
 * DELETE on close); 2026-07-28 is the SDK v2 client pinned to it (no handshake, no session). Refuses
 * to measure if the revision actually negotiated is not the one asked for.
 */
async function openClient(revision: Revision, url: string, token: string | undefined, fetch: Fetch) {
  if (revision === '2025-11-25') {
    const transport = new TransportV1(new URL(url), {
      fetch: fetch as unknown as FetchLikeV1,
      requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
    });
    const client = new ClientV1({ name: 'bench', version: '1' });
    await client.connect(transport);
    if (transport.protocolVersion !== revision)
      throw new Error(`v1 client negotiated ${transport.protocolVersion}, not ${revision}`);
    return {
      echo: (text) => client.callTool({ name: 'common_test_echo', arguments: { text } }),
      async close() {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      },
    } satisfies BenchClient;
  }
  const transport = new TransportV2(new URL(url), {
    fetch: fetch as unknown as FetchLikeV2,
    ...(token ? { authProvider: { token: () => Promise.resolve(token) } } : {}),
  });
  const client = new ClientV2(
    { name: 'bench', version: '2' },
    { versionNegotiation: { mode: { pin: revision } } },
  );
  await client.connect(transport);
  if (client.getNegotiatedProtocolVersion() !== revision)
    throw new Error(`v2 client negotiated ${client.getNegotiatedProtocolVersion()}, not ${revision}`);
  return {
    echo: (text) => client.callTool({ name: 'common_test_echo', arguments: { text } }),
    close: () => client.close(),
  } satisfies BenchClient;
}

async function load(
  revision: Revision,
  url: string,
  token: string | undefined,
  caPem: string,
  serverPid: number,
): Promise<LoadResult> {
  const fetch = pinnedFetch(caPem);
  const clients = await Promise.all(
    Array.from({ length: SESSIONS }, () => openClient(revision, url, token, fetch)),
  );
  const run = async (ms: number, latencies: number[] | null): Promise<number> => {
    const end = performance.now() + ms;
    let calls = 0;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const r = await client.echo('ping');
          // Every answer checked: a refusal answered fast must never count as a call.
          if (r.isError === true || (r.structuredContent as { echo?: unknown } | undefined)?.echo !== 'ping')
            throw new Error(`unexpected answer: ${JSON.stringify(r)}`);
          latencies?.push(performance.now() - t0);
          calls++;
        }
      }),
    );
    return calls;
  };
  try {
    await run(1500, null); // warm-up: JIT, TLS sessions, connection pools
    const latencies: number[] = [];
    const cpu0 = cpuMicros(serverPid);
    const t0 = performance.now();
    const calls = await run(SECONDS * 1000, latencies);
    const elapsed = (performance.now() - t0) / 1000;
    const cpuUsPerCall = (cpuMicros(serverPid) - cpu0) / calls;
    latencies.sort((a, b) => a - b);
    const q = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number;
    return { calls, perSecond: calls / elapsed, p50: q(0.5), p99: q(0.99), cpuUsPerCall };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await fetch.close();
  }
}

/** The median; of an even count, the mean of the two middle values (never the upper one: 2 rounds would report the max). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** A bench profile: admin, with rate limits no run can reach (the bench measures the path, not the limit). */
function writeBenchProfile(state: string): void {
  const admin = JSON.parse(readFileSync(join(ROOT, 'profiles/_default/admin.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const huge = { limit: 1_000_000, windowSeconds: 60 };
  mkdirSync(join(state, 'profiles'), { recursive: true });
  writeFileSync(
    join(state, 'profiles/bench.json'),
    JSON.stringify({
      ...admin,
      name: 'bench',
      rateLimits: { common: { default: huge }, infra: { default: huge } },
    }),
  );
}

interface Servers {
  fullUrl: string;
  barePort: string;
  full: ChildProcess;
  bare: ChildProcess;
  /** What the clients trust: the server's local CA, or its certificate when it has none. */
  caPem: string;
  token: string;
}

async function startServers(state: string, env: NodeJS.ProcessEnv): Promise<Servers> {
  const full = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/support/full-server.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let bare: ChildProcess | undefined;
  try {
    const fullUrl = await waitForLine(full, 'URL ');
    const caFile = join(state, 'secrets/ca_cert.pem');
    const caPem = readFileSync(existsSync(caFile) ? caFile : join(state, 'secrets/tls_cert.pem'), 'utf8');
    const token = readFileSync(join(state, 'clients/bench/secrets/.token'), 'utf8').trim();
    // The same certificate and key as the full server: the TLS cost is the same on both sides.
    bare = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'bench/support/bare-mcp-server.ts'),
        join(state, 'secrets/tls_cert.pem'),
        join(state, 'secrets/tls_key.pem'),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const barePort = await waitForLine(bare, 'PORT ');
    return { fullUrl, barePort, full, bare, caPem, token };
  } catch (err) {
    if (bare) await stop(bare);
    await stop(full);
    throw err;
  }
}

type Side = 'bare' | 'full';

async function measure(side: Side, revision: Revision, s: Servers): Promise<LoadResult> {
  return side === 'bare'
    ? load(revision, `https://127.0.0.1:${s.barePort}/mcp`, undefined, s.caPem, s.bare.pid as number)
    : load(revision, `${s.fullUrl}/mcp`, s.token, s.caPem, s.full.pid as number);
}

function report(revision: Revision, results: Record<Side, LoadResult[]>): void {
  const row = (rs: LoadResult[]) => {
    const rates = rs.map((r) => r.perSecond);
    return {
      min: Math.min(...rates),
      perSecond: median(rates),
      max: Math.max(...rates),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      cpu: median(rs.map((r) => r.cpuUsPerCall)),
    };
  };
  const bare = row(results.bare);
  const full = row(results.full);
  const client = revision === '2025-11-25' ? 'v1 SDK client, sessions' : 'SDK v2 client, stateless';
  console.log('');
  console.log(`### MCP ${revision} (${client})`);
  console.log('');
  console.log(
    '| server | calls/s min / median / max | p50 ms (median) | p99 ms (median) | server CPU µs/call (median) |',
  );
  console.log('|---|---|---|---|---|');
  const names: [string, ReturnType<typeof row>][] = [
    ['bare MCP SDK v2 server', bare],
    ['full path (TLS, JWT, RBAC, rate limit, audit)', full],
  ];
  for (const [name, r] of names) {
    console.log(
      `| ${name} | ${r.min.toFixed(0)} / ${r.perSecond.toFixed(0)} / ${r.max.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpu.toFixed(0)} |`,
    );
  }
  const ratio = full.perSecond / bare.perSecond;
  const p50Delta = full.p50 - bare.p50;
  console.log('');
  console.log(
    `throughput ratio full/bare (medians): ${(ratio * 100).toFixed(1)}% (target >= 70%) ${ratio >= 0.7 ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `p50 latency difference: ${p50Delta.toFixed(2)} ms (target <= 2 ms) ${p50Delta <= 2 ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `server CPU per call: full ${full.cpu.toFixed(0)} µs vs bare ${bare.cpu.toFixed(0)} µs (${(full.cpu / bare.cpu).toFixed(2)}x)`,
  );
}

async function main(): Promise<void> {
  const state = mkdtempSync(join(tmpdir(), 'ucmcp-bench-'));
  try {
    seedServerKeys(state);
    writeBenchProfile(state);
    const env = {
      ...process.env,
      STATE_DIR: state,
      SERVER_PORT: '0',
      AUTH_CLIENTS: 'bench:bench:cucm',
      LOGGING_CONSOLE_ENABLED: '0',
      ENV_FILE: '',
      AUTH_BCRYPT_COST: '4',
      // The fixture bundle lives outside the signed tree; the integrity mode does not touch the call path.
      INTEGRITY_MODE: 'warn',
    };
    const results = Object.fromEntries(
      SELECTED.map((r) => [r, { bare: [] as LoadResult[], full: [] as LoadResult[] }]),
    ) as Record<Revision, Record<Side, LoadResult[]>>;
    console.log(
      `MCP tool-call throughput: revisions ${SELECTED.join(' and ')}, ${SESSIONS} concurrent clients, ${SECONDS} s per phase, ${ROUNDS} rounds (bare and full alternate; which goes first alternates by round)`,
    );
    // Other work on the machine shifts both sides alike, but it widens the spread: say how busy it was.
    const machine = () => `load average ${loadavg()[0]?.toFixed(2)} on ${cpus().length} cores`;
    console.log(`machine at start: ${machine()}`);
    for (let round = 1; round <= ROUNDS; round++) {
      const servers = await startServers(state, env);
      try {
        // Bare first in odd rounds, full first in even ones: neither always gets the cooler machine.
        const order: Side[] = round % 2 === 1 ? ['bare', 'full'] : ['full', 'bare'];
        for (const revision of SELECTED) {
          process.stdout.write(`  round ${round}/${ROUNDS} ${revision}:`);
          for (const side of order) {
            process.stdout.write(` ${side}... `);
            const r = await measure(side, revision, servers);
            results[revision][side].push(r);
            process.stdout.write(`${r.perSecond.toFixed(0)}/s;`);
          }
          process.stdout.write('\n');
        }
      } finally {
        // Never leave a server behind, whatever failed.
        await stop(servers.bare);
        await stop(servers.full);
      }
    }
    console.log(`machine at end: ${machine()}`);
    for (const revision of SELECTED) report(revision, results[revision]);
    console.log('');
    console.log(
      `(the ${SESSIONS} clients run in this process and both servers in their own, all on 127.0.0.1 and the same cores: the client side bounds calls/s; CPU per call is the server cost)`,
    );
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

await main();
