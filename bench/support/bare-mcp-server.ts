// Baseline for bench/mcp-throughput.ts: a bare MCP SDK server (McpServer + Streamable HTTP) over HTTPS
// serving the same trivial echo tool, with no auth, RBAC, rate limit or audit. Prints its port.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const [certFile, keyFile] = process.argv.slice(2) as [string, string];
const transports = new Map<string, StreamableHTTPServerTransport>();

const server = createServer(
  { cert: readFileSync(certFile), key: readFileSync(keyFile), minVersion: 'TLSv1.2' },
  (req, res) => {
    void (async () => {
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const t = transports.get(sid);
        if (!t) {
          res.statusCode = 404;
          res.end();
          return;
        }
        await t.handleRequest(req, res);
        return;
      }
      const mcp = new McpServer({ name: 'bare', version: '1.0.0' });
      mcp.registerTool(
        'common_test_echo',
        { description: 'echo', inputSchema: { text: z.string().max(1000) } },
        async ({ text }) => ({
          content: [{ type: 'text', text: JSON.stringify({ echo: text }) }],
          structuredContent: { echo: text },
        }),
      );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport),
        onsessionclosed: (id) => void transports.delete(id),
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    })();
  },
);
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`PORT ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
