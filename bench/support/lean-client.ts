// The load client of bench/mcp-throughput.ts, in a process of its own (no server shares its event loop).
// Lean: each session is opened by the official SDK client of its revision (the v1 client on 2025-11-25:
// initialize and a session; the SDK v2 client pinned to 2026-07-28: no handshake), which makes one real
// tools/call; the exact request it sent (headers, body) is then replayed with a new JSON-RPC id over a
// keep-alive undici connection, and each answer (JSON or SSE) is parsed and checked. So the client's own
// cost per call is one HTTPS request and one JSON parse, whatever the server. The server's CPU time over
// the measured phase is read from /proc. Prints one BENCH-RESULT line.
//   node --import tsx bench/support/lean-client.ts '<json LeanClientJob>'
import { readFileSync } from 'node:fs';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import type { FetchLike as FetchLikeV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike as FetchLikeV1 } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { cpuMicros, printResult } from './proc.ts';
import { percentile } from './stats.ts';

export type Revision = '2025-11-25' | '2026-07-28';

export interface LeanClientJob {
  url: string;
  revision: Revision;
  token?: string;
  caFile: string;
  sessions: number;
  warmupMs: number;
  seconds: number;
  tool: string;
  args: Record<string, unknown>;
  /** A structuredContent key every answer must carry (and its value, when given). */
  expectKey: string;
  expectValue?: string;
  serverPid: number;
}

export interface LeanClientResult {
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Server CPU (user + system) per call over the measured phase, in microseconds. */
  cpuUsPerCall: number;
}

interface Template {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const job = JSON.parse(process.argv[2] as string) as LeanClientJob;
const dispatcher = new Agent({ connect: { ca: readFileSync(job.caFile, 'utf8') } });

/** fetch for the SDK client that remembers the tools/call request it sends. */
function capturingFetch(into: { template?: Template }) {
  return (input: string | URL, init: Parameters<typeof undiciFetch>[1] = {}) => {
    if (typeof init.body === 'string' && init.body.includes('"tools/call"')) {
      into.template = {
        headers: Object.fromEntries(
          new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).entries(),
        ),
        body: JSON.parse(init.body) as Record<string, unknown>,
      };
    }
    return undiciFetch(input, { ...init, dispatcher });
  };
}

/** Opens one session with the SDK client, makes one call through it, and returns what it sent. */
async function openSession(): Promise<{ template: Template; close: () => Promise<void> }> {
  const seen: { template?: Template } = {};
  const fetch = capturingFetch(seen);
  const call = { name: job.tool, arguments: job.args };
  if (job.revision === '2025-11-25') {
    const transport = new TransportV1(new URL(job.url), {
      fetch: fetch as unknown as FetchLikeV1,
      requestInit: { headers: job.token ? { Authorization: `Bearer ${job.token}` } : {} },
    });
    const client = new ClientV1({ name: 'bench', version: '1' });
    await client.connect(transport);
    if (transport.protocolVersion !== job.revision)
      throw new Error(`v1 client negotiated ${transport.protocolVersion}, not ${job.revision}`);
    check(await client.callTool(call));
    return {
      template: seen.template as Template,
      close: async () => {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      },
    };
  }
  const transport = new TransportV2(new URL(job.url), {
    fetch: fetch as unknown as FetchLikeV2,
    ...(job.token ? { authProvider: { token: () => Promise.resolve(job.token as string) } } : {}),
  });
  const client = new ClientV2(
    { name: 'bench', version: '2' },
    { versionNegotiation: { mode: { pin: job.revision } } },
  );
  await client.connect(transport);
  if (client.getNegotiatedProtocolVersion() !== job.revision)
    throw new Error(`v2 client negotiated ${client.getNegotiatedProtocolVersion()}, not ${job.revision}`);
  check(await client.callTool(call));
  return { template: seen.template as Template, close: () => client.close() };
}

/** Every answer checked: a refusal answered fast must never count as a call. */
function check(result: unknown): void {
  const r = result as { isError?: boolean; structuredContent?: Record<string, unknown> } | undefined;
  const v = r?.structuredContent?.[job.expectKey];
  if (!r || r.isError === true || v === undefined || (job.expectValue !== undefined && v !== job.expectValue))
    throw new Error(`unexpected answer: ${JSON.stringify(result).slice(0, 500)}`);
}

let nextId = 1_000_000;

/** One replayed tools/call; the answer is a JSON body or an SSE stream carrying the response. */
async function replay(t: Template): Promise<void> {
  const id = nextId++;
  const res = await request(job.url, {
    method: 'POST',
    headers: t.headers,
    body: JSON.stringify({ ...t.body, id }),
    dispatcher,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  const type = String(res.headers['content-type'] ?? '');
  const payload = type.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)) as { id?: unknown; result?: unknown })
        .find((m) => m.id === id)
    : (JSON.parse(text) as { id?: unknown; result?: unknown });
  if (payload?.id !== id) throw new Error(`no answer to request ${id}: ${text.slice(0, 300)}`);
  check(payload.result);
}

async function main(): Promise<void> {
  const sessions = await Promise.all(Array.from({ length: job.sessions }, () => openSession()));
  const run = async (ms: number, latencies: number[] | null): Promise<number> => {
    const end = performance.now() + ms;
    let calls = 0;
    await Promise.all(
      sessions.map(async ({ template }) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          await replay(template);
          latencies?.push(performance.now() - t0);
          calls++;
        }
      }),
    );
    return calls;
  };
  try {
    await run(job.warmupMs, null); // JIT on both sides, TLS sessions, connection pool
    const latencies: number[] = [];
    const cpu0 = cpuMicros(job.serverPid);
    const t0 = performance.now();
    const calls = await run(job.seconds * 1000, latencies);
    const elapsed = (performance.now() - t0) / 1000;
    const cpuUsPerCall = (cpuMicros(job.serverPid) - cpu0) / calls;
    printResult({
      calls,
      perSecond: calls / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cpuUsPerCall,
    } satisfies LeanClientResult);
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await dispatcher.close();
  }
}

await main();
