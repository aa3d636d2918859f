// Baseline for bench/mcp-throughput.ts: the bare MCP SDK v2 over HTTPS, serving the same trivial echo
// tool on both revisions of one endpoint the way the product does (the SDK's `isLegacyRequest` on the
// parsed body; 2026-07-28 to `createMcpHandler` with one low-level Server per request, 2025-11-25 to a
// sessionful NodeStreamableHTTPServerTransport with one Server per session), and nothing else: no auth,
// RBAC, rate limit, audit or metrics. That is the floor the full path is measured against. It answers in
// JSON, never SSE (`enableJsonResponse` on 2025-11-25, `responseMode: 'json'` on 2026-07-28): the lean
// baseline, as an SDK server without streaming needs would be deployed. Prints its port.
//   node --import tsx bench/support/bare-mcp-server.ts <tls_cert.pem> <tls_key.pem> [port]
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';

const [certFile, keyFile, port] = process.argv.slice(2) as [string, string, string | undefined];
// The product's default body bound (HTTP_MAX_BODY_BYTES), so both read and check bodies alike.
const MAX_BODY_BYTES = 1_048_576;

// The fixture's input (test/fixtures/plugins/test-common: test_echo in the common module).
const echoInput = z.object({ text: z.string().max(1000) }).strict();

/** One low-level Server with the echo tool, answering with the shape the product's fixture returns. */
function makeServer(): Server {
  const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [
      {
        name: 'common_test_echo',
        description: 'Returns its input.',
        inputSchema: {
          type: 'object' as const,
          properties: { text: { type: 'string', maxLength: 1000 } },
          required: ['text'],
          additionalProperties: false,
        },
      },
    ],
  }));
  server.setRequestHandler('tools/call', (req) => {
    const input = echoInput.safeParse(req.params.arguments ?? {});
    if (req.params.name !== 'common_test_echo' || !input.success) {
      return { isError: true, content: [{ type: 'text' as const, text: 'BAD_REQUEST' }] };
    }
    const structured = { echo: input.data.text };
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(structured) }],
      structuredContent: structured,
    };
  });
  return server;
}

const modern = toNodeHandler(
  createMcpHandler(() => makeServer(), {
    legacy: 'reject',
    responseMode: 'json',
    maxRequestBodySize: MAX_BODY_BYTES,
  }),
  { maxRequestBodySize: MAX_BODY_BYTES },
);
const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

function answer(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The body of a JSON POST, read once (bounded) and parsed, as the product's route reads it. */
async function readJson(req: IncomingMessage): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { ok: false };
    chunks.push(chunk);
  }
  try {
    return { ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

async function legacy(req: IncomingMessage, res: ServerResponse, parsed: unknown): Promise<void> {
  const sid = req.headers['mcp-session-id'];
  if (typeof sid === 'string') {
    const session = sessions.get(sid);
    if (!session) return answer(res, 404, -32001, 'Session not found');
    await session.handleRequest(req, res, parsed);
    return;
  }
  if (req.method !== 'POST') return answer(res, 400, -32000, 'Mcp-Session-Id header is required');
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void sessions.set(id, transport),
    onsessionclosed: (id) => void sessions.delete(id),
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await makeServer().connect(transport);
  await transport.handleRequest(req, res, parsed);
  // Not an initialize request: the transport answered 400 and no session came to be.
  if (!transport.sessionId) await transport.close();
}

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let parsed: unknown;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (req.method === 'POST' && type === 'application/json') {
    const read = await readJson(req);
    if (!read.ok) return answer(res, 400, -32700, 'Parse error');
    parsed = read.body;
  }
  if (parsed !== undefined && !(await isLegacyRequest(await toWebRequest(req, parsed), parsed))) {
    await modern(req, res, parsed);
    return;
  }
  await legacy(req, res, parsed);
}

const server = createServer(
  { cert: readFileSync(certFile), key: readFileSync(keyFile), minVersion: 'TLSv1.2' },
  (req, res) => {
    route(req, res).catch((err: unknown) => {
      process.stderr.write(`bare server: ${(err as Error).message}\n`);
      if (!res.headersSent) answer(res, 500, -32603, 'internal error');
      else res.destroy();
    });
  },
);
server.listen(Number(port ?? 0), '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`PORT ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => {
  for (const t of sessions.values()) void t.close();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
