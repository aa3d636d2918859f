// Claude Code's own CLI against the real server: `claude mcp add --transport http … --header` (the
// configuration docs/clients.md gives), then `claude mcp list`, which connects to each server (its health
// check: server/discover, subscriptions/listen and tools/list over MCP 2026-07-28, as 2.1.328 does) and
// says whether it could. Claude Code is not a devDependency (its native
// binary is some 370 MB): the test runs where CLAUDE_CODE_BIN names the binary or
// node_modules/@anthropic-ai/claude-code is installed, and skips with the reason elsewhere.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import forge from 'node-forge';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { startTestKernel, type TestKernel } from '../helpers/kernel.ts';
import { startupToken } from '../helpers/mcp-client.ts';
import { clientSandbox, runCommand, trustAnchor, type ClientSandbox } from '../helpers/npm-clients.ts';
import { authRecords } from '../helpers/oauth.ts';

const CLAUDE =
  process.env.CLAUDE_CODE_BIN ||
  join(PROJECT_ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
const missing = existsSync(CLAUDE)
  ? false
  : `Claude Code is not installed (set CLAUDE_CODE_BIN, or npm install --no-save @anthropic-ai/claude-code)`;

// Claude Code sends nothing beyond the MCP server it is asked to check.
const QUIET = {
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
};

describe('Claude Code (claude mcp add --transport http)', { skip: missing, timeout: 300_000 }, () => {
  let k: TestKernel;
  let sandbox: ClientSandbox;
  before(async () => {
    k = await startTestKernel({ env: { AUTH_CLIENTS: 'ada:auditor:cucm', AUTH_BCRYPT_COST: '4' } });
    sandbox = clientSandbox(trustAnchor(k.stateDir));
  });
  after(async () => {
    await k.stop();
    sandbox.cleanup();
  });

  // Its native binary is not a Node process: the no-browser preload does not apply (nor is it needed:
  // `mcp add` and `mcp get` never start an OAuth sign-in).
  const claude = (args: string[], trust?: string | null) =>
    runCommand(CLAUDE, args, {
      env: { ...sandbox.env(QUIET, { trust }), NODE_OPTIONS: '' },
      cwd: sandbox.home,
      timeoutMs: 120_000,
    });
  const add = async (name: string, token: string) => {
    const r = await claude([
      'mcp',
      'add',
      '--transport',
      'http',
      name,
      `${k.url}/mcp`,
      '--header',
      `Authorization: Bearer ${token}`,
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  };

  /** The status `claude mcp list` gives a server (it never prints the headers, so no token shows). */
  const status = async (name: string, trust?: string | null): Promise<string> => {
    const r = await claude(['mcp', 'list'], trust);
    const line = r.stdout.split('\n').find((l) => l.startsWith(`${name}: `));
    assert.ok(line, `claude mcp list names ${name}:\n${r.stdout}${r.stderr}`);
    return line;
  };

  it('the startup token in a header, the server CA trusted through NODE_EXTRA_CA_CERTS: connected', async (t) => {
    // What is trusted is the default local CA itself (critical name constraints and all), not the leaf:
    // BoringSSL, which Claude Code's native build uses, refuses a CA whose name constraints it cannot
    // check (iPAddress subtrees), so this is the test that the CA the server makes is one it accepts.
    const anchor = trustAnchor(k.stateDir);
    assert.equal(anchor, join(k.stateDir, 'secrets', 'ca_cert.pem'));
    const pem = readFileSync(anchor, 'utf8');
    assert.equal(new X509Certificate(pem).ca, true);
    const nc = forge.pki.certificateFromPem(pem).getExtension('nameConstraints') as
      { critical?: boolean } | undefined;
    assert.equal(nc?.critical, true, 'the CA carries critical name constraints');
    await add('uc-mcp', startupToken(k.stateDir, 'ada'));
    const line = await status('uc-mcp');
    t.diagnostic(line);
    assert.match(line, /✔ Connected/);
  });

  it("a wrong token: it says the server rejected the header, with the server's reason", async () => {
    const failures = authRecords(k, 'AUTH_FAILED').length;
    await add('uc-bad', 'not-a-token');
    const line = await status('uc-bad');
    assert.match(line, /rejected the configured Authorization header \(HTTP 401\)/);
    assert.match(line, /the access token is invalid/);
    assert.ok(authRecords(k, 'AUTH_FAILED').length > failures, 'the server audited the refusal');
  });

  it('without the CA trusted it refuses the server (verification on)', async (t) => {
    const line = await status('uc-mcp', null);
    t.diagnostic(line);
    // A certificate error, not some other failure that would pass for one.
    assert.match(line, /Failed to connect.*(SELF_SIGNED_CERT_IN_CHAIN|certificate)/i);
  });
});
