// mcp-remote, installed from npm, as Claude Desktop runs it: a stdio MCP server started by the host (here
// the v1 SDK's StdioClientTransport, which is what a stdio host does), bridging to the real server over
// HTTPS with the startup token in a header and the server's certificate trusted through
// NODE_EXTRA_CA_CERTS. Both of its protocol modes: `legacy` (the default: the host's own 2025-11-25
// handshake passed through) and `auto` (it probes server/discover and speaks 2026-07-28 when answered).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { actionOutcomes, type TestKernel } from '../helpers/kernel.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import {
  MCP_REMOTE,
  MCP_REMOTE_BIN,
  missingClient,
  startClientTestServer,
  type ClientSandbox,
  type ClientTestServer,
} from '../helpers/npm-clients.ts';
import { authRecords } from '../helpers/oauth.ts';

// Each request crosses two processes and a TLS connection; generous for a slow CI machine, still bounded.
const REQUEST_MS = 60_000;

interface Bridged {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

describe(
  `${MCP_REMOTE.name} ${MCP_REMOTE.version} as a stdio bridge`,
  { skip: missingClient(MCP_REMOTE), timeout: 300_000 },
  () => {
    let k: TestKernel;
    let sandbox: ClientSandbox;
    let token: string;
    let server: ClientTestServer;
    before(async () => {
      server = await startClientTestServer();
      ({ k, token, sandbox } = server);
    });
    after(() => server.stop());

    /**
     * The claude_desktop_config.json entry of docs/clients.md: `mcp-remote <url> --header
     * Authorization:${AUTH_HEADER}`, the value in the environment (no space in the argument, and the token
     * kept out of the process list). `extra` adds arguments.
     */
    async function bridge(
      o: { header?: string; extra?: string[]; connectMs?: number } = {},
    ): Promise<Bridged> {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          MCP_REMOTE_BIN,
          `${k.url}/mcp`,
          '--header',
          'Authorization:${AUTH_HEADER}',
          ...(o.extra ?? []),
        ],
        env: sandbox.env({ AUTH_HEADER: o.header ?? `Bearer ${token}` }),
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const client = new Client({ name: 'desktop-host', version: '1.0.0' });
      try {
        await client.connect(transport, { timeout: o.connectMs ?? REQUEST_MS });
      } catch (err) {
        await client.close().catch(() => undefined);
        throw Object.assign(err as Error, { stderr });
      }
      return { client, stderr: () => stderr, close: () => client.close() };
    }

    for (const mode of ['legacy', 'auto'] as const) {
      it(`--protocol ${mode}: lists and calls tools, reads a resource, gets a prompt`, async (t) => {
        const b = await bridge(mode === 'auto' ? { extra: ['--protocol', 'auto'] } : {});
        try {
          const names = (await b.client.listTools(undefined, { timeout: REQUEST_MS })).tools.map(
            (t) => t.name,
          );
          for (const n of ['infra_init_session', 'infra_health', 'cucm_get_version'])
            assert.ok(names.includes(n), `${n} listed: ${names.join(', ')}`);
          const direct = await connectMcp(k, token);
          const expected = (await direct.client.listTools()).tools.map((t) => t.name);
          await direct.close();
          assert.deepEqual([...names].sort(), [...expected].sort());

          const before = actionOutcomes(k.auditRecords()).length;
          const health = (await b.client.callTool({ name: 'infra_health', arguments: {} }, undefined, {
            timeout: REQUEST_MS,
          })) as unknown as { isError?: boolean; structuredContent: { license: string; server: string } };
          assert.notEqual(health.isError, true);
          assert.equal(health.structuredContent.license, 'VALID');
          assert.equal(health.structuredContent.server, 'uc-mcp-server');
          assert.deepEqual(
            actionOutcomes(k.auditRecords())
              .slice(before)
              .map((x) => [x.tool_name, x.client, x.result]),
            [['infra_health', 'ada', 'ALLOWED']],
          );

          const resources = (await b.client.listResources(undefined, { timeout: REQUEST_MS })).resources;
          const guide = resources.find((r) => r.uri.startsWith('cucm://security-guide/'));
          assert.ok(
            guide,
            `a CUCM security guide chapter is listed: ${resources.map((r) => r.uri).join(', ')}`,
          );
          const read = await b.client.readResource({ uri: guide.uri }, { timeout: REQUEST_MS });
          const chapter = read.contents[0] as { uri: string; mimeType?: string; text?: string };
          assert.equal(chapter.uri, guide.uri);
          assert.equal(chapter.mimeType, 'text/markdown');
          assert.match(chapter.text ?? '', /^# /m);

          const prompt = await b.client.getPrompt(
            { name: 'cucm_security_audit', arguments: { host: 'cucm-pub' } },
            { timeout: REQUEST_MS },
          );
          const text = (prompt.messages[0]?.content as { type: string; text: string }).text;
          assert.equal(prompt.messages[0]?.role, 'user');
          assert.match(text, /cucm-pub/);
          assert.deepEqual(sandbox.blockedSpawns(), [], 'it started no other program');
          const era = /Remote server speaks MCP (\S+);/.exec(b.stderr())?.[1];
          t.diagnostic(era ? `bridged to MCP ${era}` : 'passed the 2025-11-25 handshake through');
        } finally {
          await b.close();
        }
        // Its state stays in the sandbox (MCP_REMOTE_CONFIG_DIR), never in the user's ~/.mcp-auth.
        assert.ok(existsSync(sandbox.configDir), 'mcp-remote used the configured directory');
      });
    }

    it("a wrong token: the host's connection fails, the server audited the refusal, and no browser ran", async (t) => {
      const failures = authRecords(k, 'AUTH_FAILED').length;
      // On a 401 mcp-remote falls back to a browser sign-in (registering itself first when the server
      // offers dynamic registration) and then waits for it: the guard refuses the browser, and the host
      // gives up after 20 s, long after the server refused the token.
      const err = await bridge({ header: 'Bearer not-a-token', connectMs: 20_000 }).then(
        async (b) => {
          await b.close();
          return undefined;
        },
        (e: unknown) => e as Error & { stderr: string },
      );
      assert.ok(err, 'the connection must not succeed with a wrong token');
      assert.match(err.stderr, /dynamic client registration|authoriz/i, err.stderr);
      const refused = authRecords(k, 'AUTH_FAILED').slice(failures);
      assert.ok(
        refused.some((x) => x.path === '/mcp' && x.reason === 'malformed'),
        JSON.stringify(refused),
      );
      // Whatever it tried to start (a browser at the authorization URL) was refused by the guard, not run.
      for (const s of sandbox.blockedSpawns()) t.diagnostic(`refused to start ${s.program} (${s.via})`);
    });
  },
);
