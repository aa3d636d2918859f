import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { pinnedFetch } from '../helpers/https-client.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { desktopConfigOf, printedCommand } from '../helpers/demo-output.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import { clientSandbox } from '../helpers/npm-clients.ts';
import { tempStateDir } from '../helpers/state-dir.ts';
import type { TestKernel } from '../helpers/kernel.ts';

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/** Every regular file below `dir`; symbolic links (the install's node_modules) are not followed. */
function filesBelow(dir: string): string[] {
  const out: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out; // removed while we looked (a staging folder)
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesBelow(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** A real PEM private key (its base64 body), not a source file that mentions the marker. */
const PEM_PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----\r?\n[A-Za-z0-9+/=]{40,}/;

const modeOf = (path: string): string => (lstatSync(path).mode & 0o777).toString(8);

/** Runs a printed command line as a user pastes it into a POSIX shell. */
function runShell(
  line: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

// The README's first Quick start command, as a user runs it (minus `npm install`).
describe('npm run demo', () => {
  const tmp = tempStateDir('ucmcp-demo-');
  after(() => tmp.cleanup());

  it('starts the lab and a signed, licensed server; a demo client connects; Ctrl-C stops everything', async () => {
    const state = join(tmp.dir, 'state');
    // Left readable by an earlier run or an older version: the demo must tighten them, not keep them.
    mkdirSync(state, { recursive: true, mode: 0o700 });
    for (const f of ['demo.json', 'lab-info.json']) writeFileSync(join(state, f), '{}\n', { mode: 0o644 });
    const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'scripts/demo.ts')], {
      env: { ...process.env, DEMO_DIR: tmp.dir, STATE_DIR: state, SERVER_PORT: '0', AUTH_BCRYPT_COST: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    for (let i = 0; i < 600 && !out.includes('demo is running'); i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /demo is running/, out);
    assert.match(out, /\[5\/5\]/, 'progress is shown step by step');
    assert.match(
      out,
      /Weaknesses +weak profile: all \d+ weaknesses seeded/,
      'the banner says what the lab seeded',
    );
    // The local CA to trust, and how (test/lab/demo-trust-commands.test.ts runs each line).
    const caFile = join(state, 'secrets', 'ca_cert.pem');
    assert.ok(out.includes(`CA certificate ${caFile}`), out);
    assert.ok(out.includes(`export NODE_EXTRA_CA_CERTS=${caFile}`), out);
    assert.match(out, /update-ca-certificates[\s\S]*add-trusted-cert[\s\S]*certutil -addstore -f Root/);

    const demo = JSON.parse(readFileSync(join(state, 'demo.json'), 'utf8')) as {
      server: { url: string; tls_certificate: string };
      clients: { name: string; token_file: string }[];
      credentials_stored: number;
      lab: {
        nodes: {
          product: string;
          name: string;
          certFingerprint?: string;
          ports: Record<string, number>;
          credentials: Record<string, { password: string }>;
        }[];
      };
    };
    assert.deepEqual(
      demo.clients.map((c) => c.name),
      ['demo-admin', 'demo-operator', 'demo-auditor'],
    );
    assert.ok(demo.credentials_stored >= 3 * 7, 'lab credentials stored for every demo client');
    // Every file the demo wrote that holds a lab password (or a private key): 0600, in 0700 folders.
    const passwords = [
      ...new Set(demo.lab.nodes.flatMap((n) => Object.values(n.credentials).map((c) => c.password))),
    ];
    assert.ok(passwords.length >= 4, 'the lab has passwords to look for');
    const holders = filesBelow(tmp.dir).filter((f) => {
      let text: string;
      try {
        if (statSync(f).size > 8 * 1024 * 1024) return false;
        text = readFileSync(f, 'latin1');
      } catch {
        return false; // a temporary file the running server renamed meanwhile (its backup)
      }
      return passwords.some((p) => text.includes(p)) || PEM_PRIVATE_KEY.test(text);
    });
    const shown = holders.map((f) => relative(tmp.dir, f));
    for (const f of ['state/demo.json', 'state/lab-info.json'])
      assert.ok(shown.includes(f), `${f} holds the lab passwords: ${shown.join(', ')}`);
    for (const f of holders) {
      assert.equal(modeOf(f), '600', `${relative(tmp.dir, f)} holds a secret`);
      for (let d = dirname(f); d.startsWith(tmp.dir) && d !== tmp.dir; d = dirname(d))
        assert.equal(modeOf(d), '700', `${relative(tmp.dir, d)}/ holds ${relative(tmp.dir, f)}`);
    }
    const certPem = readFileSync(demo.server.tls_certificate, 'utf8');
    const k = {
      url: demo.server.url,
      certPem,
      fetch: pinnedFetch(certPem),
      stateDir: state,
    } as unknown as TestKernel;
    const token = readFileSync(demo.clients[2]?.token_file as string, 'utf8').trim();
    const c = await connectMcp(k, token);
    const health = await c.call('infra_health');
    assert.equal((health.structuredContent as { license: string }).license, 'VALID');
    const status = await c.call('infra_server_status', { check_integrity: true });
    assert.equal((status.structuredContent as { integrity: { status: string } }).integrity.status, 'valid');
    // The lab is managed from the first call: credentials, host keys and AXL schema are in place.
    const check = await c.call('cucm_check_connectivity', { host: 'cucm-pub' });
    const services = (
      check.structuredContent as { services: Record<string, { ok: boolean; reason?: string }> }
    ).services;
    for (const [name, v] of Object.entries(services)) assert.equal(v.ok, true, `${name}: ${v.reason}`);
    const phone = await c.call('cucm_axl_call', {
      host: 'cucm-pub',
      operation: 'getPhone',
      args: { name: 'SEP0A1B2C3D4E01' },
    });
    assert.equal(phone.isError, undefined, JSON.stringify(phone.structuredContent));
    const ris = await c.call('cucm_risport_query', { host: 'cucm-pub' });
    assert.ok(
      (ris.structuredContent as { devices_returned: number }).devices_returned >= 3,
      JSON.stringify(ris),
    );
    const cupi = await c.call('cuc_get_version', { host: 'cuc-pub' });
    assert.equal(cupi.isError, undefined, JSON.stringify(cupi.structuredContent));
    await c.close();

    // The admin meets each node's self-signed certificate as on a real cluster: the first call reports
    // the fingerprint the demo printed; trusted, the calls go through.
    const cucmCert = demo.lab.nodes.find((n) => n.name === 'cucm-pub')?.certFingerprint as string;
    assert.ok(out.includes(`cucm-pub   ${cucmCert}`), out);
    const a = await connectMcp(k, readFileSync(demo.clients[0]?.token_file as string, 'utf8').trim());
    const first = await a.call('cucm_get_version', { host: 'cucm-pub' });
    assert.equal(first.isError, true);
    const refusal = first.structuredContent as { details?: { presented?: { fingerprint?: string } } };
    assert.equal(refusal.details?.presented?.fingerprint, cucmCert, JSON.stringify(refusal));
    const trusted = await a.call('cucm_trust_certificate', {
      host: 'cucm-pub',
      fingerprint: cucmCert,
      action: 'trust',
    });
    assert.equal(trusted.isError, undefined, JSON.stringify(trusted.structuredContent));
    const version = await a.call('cucm_get_version', { host: 'cucm-pub' });
    assert.equal(version.isError, undefined, JSON.stringify(version.structuredContent));
    await a.close();

    // The operator CLI invocation the demo prints targets its signed install and state, from anywhere
    // (run here from a folder that is neither, with no STATE_DIR in the environment).
    const cliEnv = { PATH: process.env.PATH ?? '', HOME: tmp.dir };
    for (const [command, verdict] of [
      ['license_checker', /^state: +VALID\b[\s\S]*\(enforce; integrity valid\)/m],
      ['update_manifest --check', /^integrity: valid$/m],
    ] as const) {
      const line = new RegExp(`^  (node \\S+ucmcp\\.mjs ${command}\\b.*)$`, 'm').exec(out)?.[1];
      assert.ok(line, `the demo prints the ${command} invocation:\n${out}`);
      const r = await runShell(line, tmp.dir, cliEnv);
      assert.equal(r.code, 0, `${line}\n${r.stdout}${r.stderr}`);
      assert.match(r.stdout, verdict, `${line}\n${r.stdout}${r.stderr}`);
    }

    // The client commands it prints, run as a user runs them. The npm clients are this checkout's
    // devDependencies: npx offline uses them, and fails rather than download anything.
    const admin = demo.clients[0]?.token_file as string;
    const claude = printedCommand(out, 'claude mcp add --transport http uc-mcp');
    assert.ok(claude.includes(`${demo.server.url}/mcp`) && claude.includes(admin), claude);
    const sandbox = clientSandbox(demo.server.tls_certificate);
    try {
      const npmEnv = sandbox.env(
        { npm_config_offline: 'true', npm_config_update_notifier: 'false' },
        // The printed commands bring their own NODE_EXTRA_CA_CERTS; npx runs node through sh.
        { trust: null, allowPrograms: ['sh', 'node', 'npm', 'npx'] },
      );
      const inspector = await runShell(printedCommand(out, '(cd '), tmp.dir, npmEnv);
      assert.equal(inspector.code, 0, inspector.stderr);
      const listed = (JSON.parse(inspector.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
      assert.ok(listed.includes('cucm_check_connectivity'), listed.join(', '));

      // Claude Desktop: the configured command, arguments and environment, started as a stdio server.
      const entry = desktopConfigOf(out).mcpServers['uc-mcp'];
      assert.ok(entry, 'the uc-mcp entry');
      const transport = new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        env: { ...npmEnv, ...entry.env },
        cwd: PROJECT_ROOT,
        stderr: 'pipe',
      });
      const desktop = new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' });
      await desktop.connect(transport, { timeout: 60_000 });
      const bridged = (await desktop.callTool({ name: 'infra_health', arguments: {} })) as unknown as {
        structuredContent: { license: string };
      };
      assert.equal(bridged.structuredContent.license, 'VALID');
      await desktop.close();
      assert.deepEqual(sandbox.blockedSpawns(), []);
    } finally {
      sandbox.cleanup();
    }

    child.kill('SIGINT');
    assert.equal(await exited, 0);
    const ports = demo.lab.nodes.flatMap((n) => Object.values(n.ports));
    ports.push(Number(new URL(demo.server.url).port));
    for (const p of ports) assert.equal(await portOpen(p), false, `port ${p} closed after Ctrl-C`);
  });
});
