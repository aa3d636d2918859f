// Tool-call throughput and latency through the whole path (TLS, bearer JWT, IP guard, RBAC, rate limit,
// audit, metrics) versus a bare MCP SDK server serving the same trivial tool over HTTPS, measured in the
// same run, alternating A/B rounds so that machine noise hits both alike.
//   node --import tsx bench/mcp-throughput.ts [--sessions 16] [--seconds 6] [--rounds 2]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { pinnedFetch } from '../test/helpers/https-client.ts';
import { seedServerKeys } from '../test/helpers/keys.ts';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '2' },
  },
});
const SESSIONS = Number(values.sessions);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
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
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
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

async function load(
  url: string,
  headers: Record<string, string>,
  caPem: string,
  serverPid: number,
): Promise<LoadResult> {
  const fetch = pinnedFetch(caPem);
  const clients = await Promise.all(
    Array.from({ length: SESSIONS }, async () => {
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        fetch: fetch as unknown as FetchLike,
        requestInit: { headers },
      });
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(transport);
      return { client, transport };
    }),
  );
  const run = async (ms: number, latencies: number[] | null): Promise<number> => {
    const end = performance.now() + ms;
    let calls = 0;
    await Promise.all(
      clients.map(async ({ client }) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const r = await client.callTool({ name: 'common_test_echo', arguments: { text: 'ping' } });
          if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
          latencies?.push(performance.now() - t0);
          calls++;
        }
      }),
    );
    return calls;
  };
  await run(1500, null); // warm-up: JIT, TLS sessions, connection pools
  const latencies: number[] = [];
  const cpu0 = cpuMicros(serverPid);
  const t0 = performance.now();
  const calls = await run(SECONDS * 1000, latencies);
  const elapsed = (performance.now() - t0) / 1000;
  const cpuUsPerCall = (cpuMicros(serverPid) - cpu0) / calls;
  await Promise.all(
    clients.map(async ({ client, transport }) => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }),
  );
  await fetch.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number;
  return { calls, perSecond: calls / elapsed, p50: q(0.5), p99: q(0.99), cpuUsPerCall };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const state = mkdtempSync(join(tmpdir(), 'ucmcp-bench-'));
  try {
    seedServerKeys(state);
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
    const results: { bare: LoadResult[]; full: LoadResult[] } = { bare: [], full: [] };
    console.log(
      `MCP tool-call throughput: ${SESSIONS} concurrent sessions, ${SECONDS} s per phase, ${ROUNDS} rounds (bare and full alternate)`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      const full = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/support/full-server.ts')], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const fullUrl = await waitForLine(full, 'URL ');
      const cert = readFileSync(join(state, 'secrets/tls_cert.pem'), 'utf8');
      const token = readFileSync(join(state, 'clients/bench/secrets/.token'), 'utf8').trim();
      const bare = spawn(
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

      try {
        process.stdout.write(`  round ${round}/${ROUNDS}: bare... `);
        const b = await load(`https://127.0.0.1:${barePort}/mcp`, {}, cert, bare.pid as number);
        results.bare.push(b);
        process.stdout.write(`${b.perSecond.toFixed(0)}/s; full... `);
        const f = await load(
          `${fullUrl}/mcp`,
          { Authorization: `Bearer ${token}` },
          cert,
          full.pid as number,
        );
        results.full.push(f);
        process.stdout.write(`${f.perSecond.toFixed(0)}/s\n`);
      } finally {
        // Never leave a server behind, whatever failed.
        await stop(bare);
        await stop(full);
      }
    }

    const row = (name: string, rs: LoadResult[]) => ({
      name,
      perSecond: median(rs.map((r) => r.perSecond)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      cpu: median(rs.map((r) => r.cpuUsPerCall)),
    });
    const bare = row('bare MCP SDK server', results.bare);
    const full = row('full path (TLS, JWT, RBAC, rate limit, audit)', results.full);
    console.log('');
    console.log('| server | calls/s | p50 ms | p99 ms | server CPU µs/call |');
    console.log('|---|---|---|---|---|');
    for (const r of [bare, full]) {
      console.log(
        `| ${r.name} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpu.toFixed(0)} |`,
      );
    }
    const ratio = full.perSecond / bare.perSecond;
    const p50Delta = full.p50 - bare.p50;
    console.log('');
    console.log(
      `throughput ratio full/bare: ${(ratio * 100).toFixed(1)}% (target >= 70%) ${ratio >= 0.7 ? 'MET' : 'NOT MET'}`,
    );
    console.log(
      `p50 latency difference: ${p50Delta.toFixed(2)} ms (target <= 2 ms) ${p50Delta <= 2 ? 'MET' : 'NOT MET'}`,
    );
    console.log(
      `server CPU per call: full ${full.cpu.toFixed(0)} µs vs bare ${bare.cpu.toFixed(0)} µs (${(full.cpu / bare.cpu).toFixed(2)}x)`,
    );
    console.log(
      '(with both servers and the 16 clients on 2 cores, the client side bounds calls/s; CPU per call is the server cost)',
    );
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

await main();
