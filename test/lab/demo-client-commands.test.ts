// The client commands `npm run demo` prints, run the way a user runs them (a POSIX shell, or Claude
// Desktop starting its configured command) against stand-in `claude` and `npx` programs that record what
// they were given: the argument vectors and environment must be exactly those docs/clients.md describes,
// whatever the paths hold (spaces, quotes), with the token read from its file and never printed.
// test/scripts/demo.test.ts runs the same commands against the real demo.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  claudeCodeHeaderCommand,
  claudeCodeOAuthCommand,
  claudeDesktopEntry,
  demoClientInstructions,
  inspectorCliCommand,
  type DemoClientTarget,
} from '../../lab/demo/client-commands.ts';
import { desktopConfigOf } from '../helpers/demo-output.ts';
import { tempStateDir } from '../helpers/state-dir.ts';

interface Recorded {
  program: string;
  argv: string[];
  cwd: string;
  env: { NODE_EXTRA_CA_CERTS?: string; AUTH_HEADER?: string };
}

describe('the client commands the demo prints', () => {
  const tmp = tempStateDir('ucmcp-demo-commands-');
  after(() => tmp.cleanup());
  // Every path the user's machine may have: spaces, a quote, a dollar sign.
  const odd = join(tmp.dir, "it's a $HOME dir");
  const bin = join(tmp.dir, 'bin');
  const record = join(tmp.dir, 'record.jsonl');
  const target: DemoClientTarget = {
    mcpUrl: 'https://127.0.0.1:8443/mcp',
    tokenFile: join(odd, 'clients', 'demo-admin', 'secrets', '.token'),
    clientSecretFile: join(odd, 'clients', 'demo-admin', 'secrets', '.client_secret'),
    clientName: 'demo-admin',
    caCert: join(odd, 'secrets', 'ca_cert.pem'),
    inspectorCwd: join(odd, 'checkout', 'scripts'),
  };
  mkdirSync(dirname(target.tokenFile), { recursive: true });
  mkdirSync(target.inspectorCwd, { recursive: true });
  writeFileSync(target.tokenFile, 'tok-123.abc\n');
  mkdirSync(bin);
  for (const program of ['claude', 'npx']) {
    const file = join(bin, program);
    writeFileSync(
      file,
      `#!${process.execPath}
require('node:fs').appendFileSync(${JSON.stringify(record)}, JSON.stringify({
  program: ${JSON.stringify(program)},
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS, AUTH_HEADER: process.env.AUTH_HEADER },
}) + '\\n');
`,
    );
    chmodSync(file, 0o755);
  }
  const PATH = [bin, '/usr/bin', '/bin'].join(delimiter);

  /** Runs `command args` with `env` and returns what the stand-in recorded. */
  async function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Recorded> {
    rmSync(record, { force: true });
    const child = spawn(command, args, { cwd: tmp.dir, env: { PATH, HOME: tmp.dir, ...env }, stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    assert.equal(code, 0, stderr);
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    assert.equal(lines.length, 1, 'one program ran');
    return JSON.parse(lines[0] as string) as Recorded;
  }
  const shell = (line: string) => run('sh', ['-c', line]);

  it('Claude Code, header variant: the token read from its file into one --header argument', async () => {
    const r = await shell(claudeCodeHeaderCommand(target));
    assert.deepEqual(r.argv, [
      'mcp',
      'add',
      '--transport',
      'http',
      'uc-mcp',
      'https://127.0.0.1:8443/mcp',
      '--header',
      'Authorization: Bearer tok-123.abc',
    ]);
    assert.doesNotMatch(
      claudeCodeHeaderCommand(target),
      /tok-123/,
      'the command names the file, not the token',
    );
  });

  it('Claude Code, OAuth variant: just the URL (it registers and signs in by itself)', async () => {
    const r = await shell(claudeCodeOAuthCommand(target));
    assert.deepEqual(r.argv, ['mcp', 'add', '--transport', 'http', 'uc-mcp', 'https://127.0.0.1:8443/mcp']);
  });

  it('Claude Desktop: mcp-remote started with the header from the environment and the CA trusted', async () => {
    const entry = claudeDesktopEntry(target);
    // What Claude Desktop does with an entry: run `command` with `args`, `env` added to its own.
    const r = await run(entry.command, entry.args, entry.env);
    assert.equal(r.program, 'npx');
    assert.deepEqual(r.argv, [
      '-y',
      'mcp-remote@0.15.1',
      'https://127.0.0.1:8443/mcp',
      '--header',
      'Authorization:${AUTH_HEADER}',
    ]);
    assert.equal(r.env.AUTH_HEADER, 'Bearer tok-123.abc');
    assert.equal(r.env.NODE_EXTRA_CA_CERTS, target.caCert);
    assert.doesNotMatch(JSON.stringify(entry), /tok-123/);
  });

  it('the Inspector CLI: run from a folder whose parent has a package.json, the CA trusted, tools listed', async () => {
    const r = await shell(inspectorCliCommand(target));
    assert.equal(r.cwd, target.inspectorCwd);
    assert.deepEqual(r.argv, [
      '-y',
      '@modelcontextprotocol/inspector-cli@1.0.3',
      '--cli',
      'https://127.0.0.1:8443/mcp',
      '--transport',
      'http',
      '--header',
      'Authorization: Bearer tok-123.abc',
      '--method',
      'tools/list',
    ]);
    assert.equal(r.env.NODE_EXTRA_CA_CERTS, target.caCert);
  });

  it('the printed block holds each command on its own line and the Desktop configuration as JSON', () => {
    const text = demoClientInstructions(target);
    const lines = text.split('\n');
    for (const cmd of [
      claudeCodeHeaderCommand(target),
      claudeCodeOAuthCommand(target),
      inspectorCliCommand(target),
    ])
      assert.ok(lines.includes(`  ${cmd}`), `printed as a line of its own: ${cmd}`);
    const desktop = desktopConfigOf(text);
    assert.deepEqual(desktop, { mcpServers: { 'uc-mcp': claudeDesktopEntry(target) } });
    assert.match(text, /demo-admin/);
    assert.ok(text.includes(target.clientSecretFile), 'says where the OAuth client secret is');
    assert.doesNotMatch(text, /tok-123/, 'no token is printed');
  });
});
