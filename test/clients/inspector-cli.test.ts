// The MCP Inspector's command-line client, installed from npm, against the real server over HTTPS: the
// configuration docs/clients.md gives users (Streamable HTTP, the startup token in an Authorization
// header, the server's certificate trusted through NODE_EXTRA_CA_CERTS).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actionOutcomes, type TestKernel } from '../helpers/kernel.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import {
  INSPECTOR_CLI,
  missingClient,
  runInspectorCli,
  startClientTestServer,
  type ClientSandbox,
  type ClientTestServer,
  type RunResult,
} from '../helpers/npm-clients.ts';
import { authRecords } from '../helpers/oauth.ts';

// Two node processes start per run (the bin, then its CLI); a slow CI machine takes seconds for each.
const RUN_MS = 60_000;

describe(
  `${INSPECTOR_CLI.name} ${INSPECTOR_CLI.version} --cli`,
  { skip: missingClient(INSPECTOR_CLI), timeout: 300_000 },
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

    const inspector = (
      method: string[],
      o: { token?: string; trust?: string | null } = {},
    ): Promise<RunResult> =>
      runInspectorCli(
        [
          `${k.url}/mcp`,
          '--transport',
          'http',
          '--header',
          `Authorization: Bearer ${o.token ?? token}`,
          '--method',
          ...method,
        ],
        // The bin starts the CLI as a second `node` process: the only program it may start.
        { env: sandbox.env({}, { trust: o.trust, allowPrograms: ['node'] }), timeoutMs: RUN_MS },
      );
    const json = (r: RunResult): unknown => {
      assert.equal(r.timedOut, false, `the Inspector CLI did not finish within ${RUN_MS} ms:\n${r.stderr}`);
      assert.equal(r.code, 0, `exit ${r.code}\n${r.stderr}`);
      return JSON.parse(r.stdout);
    };

    it('tools/list returns every tool the caller may use, as an SDK client sees them', async () => {
      const listed = json(await inspector(['tools/list'])) as {
        tools: { name: string; annotations?: object }[];
      };
      const names = listed.tools.map((t) => t.name);
      for (const n of ['infra_init_session', 'infra_health', 'cucm_get_version', 'cuc_get_version'])
        assert.ok(names.includes(n), `${n} listed: ${names.join(', ')}`);
      const direct = await connectMcp(k, token);
      const expected = (await direct.client.listTools()).tools.map((t) => t.name);
      await direct.close();
      assert.deepEqual([...names].sort(), [...expected].sort());
      assert.ok(
        listed.tools.every((t) => t.annotations),
        'annotations reach the client',
      );
      assert.deepEqual(sandbox.blockedSpawns(), []);
    });

    it("tools/call infra_health returns its structured result, audited for the token's client", async () => {
      const before = actionOutcomes(k.auditRecords()).length;
      const r = json(await inspector(['tools/call', '--tool-name', 'infra_health'])) as {
        isError?: boolean;
        structuredContent: { status: string; ready: boolean; license: string; server: string };
        content: { type: string; text: string }[];
      };
      assert.notEqual(r.isError, true);
      assert.equal(r.structuredContent.license, 'VALID');
      assert.equal(r.structuredContent.server, 'uc-mcp-server');
      assert.equal(r.structuredContent.ready, true);
      assert.deepEqual(JSON.parse(r.content[0]?.text ?? 'null'), r.structuredContent);
      const outcome = actionOutcomes(k.auditRecords()).slice(before);
      assert.deepEqual(
        outcome.map((x) => [x.tool_name, x.client, x.result]),
        [['infra_health', 'ada', 'ALLOWED']],
      );
    });

    it("a wrong token fails at once with the server's reason, and the refusal is audited", async () => {
      const failures = authRecords(k, 'AUTH_FAILED').length;
      const r = await inspector(['tools/list'], { token: 'not-a-token' });
      assert.equal(r.timedOut, false);
      assert.notEqual(r.code, 0);
      assert.equal(r.stdout.trim(), '', 'no result printed');
      assert.match(r.stderr, /AUTH_FAILED/);
      assert.match(r.stderr, /the access token is invalid/);
      const refused = authRecords(k, 'AUTH_FAILED').slice(failures);
      assert.ok(
        refused.some((x) => x.path === '/mcp'),
        JSON.stringify(refused),
      );
    });

    it('without the certificate trusted it refuses the server (verification stays on)', async () => {
      const r = await inspector(['tools/list'], { trust: null });
      assert.equal(r.timedOut, false);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /fetch failed/);
    });
  },
);
