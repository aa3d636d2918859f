// The MCP clients a user installs from npm (the Inspector CLI, mcp-remote), run by tests as the user runs
// them: their own node process, the server's certificate trusted through NODE_EXTRA_CA_CERTS (never by
// switching verification off), in a sandbox HOME so they write nothing outside it, and with every attempt
// to start another program (an OAuth fallback opening a browser) refused and recorded.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { startTestKernel, type TestKernel } from './kernel.ts';
import { startupToken } from './mcp-client.ts';

export const NO_BROWSER = join(import.meta.dirname, 'no-browser.mjs');

export interface NpmClient {
  name: string;
  version: string;
  dir: string;
}

export const INSPECTOR_CLI: NpmClient = {
  name: '@modelcontextprotocol/inspector-cli',
  version: '1.0.3',
  dir: join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli'),
};

export const MCP_REMOTE: NpmClient = {
  name: 'mcp-remote',
  version: '0.15.1',
  dir: join(PROJECT_ROOT, 'node_modules', 'mcp-remote'),
};

/** Why a test of this client cannot run here (printed as the skip reason), or false when it can. */
export function missingClient(c: NpmClient): string | false {
  const pkg = join(c.dir, 'package.json');
  if (!existsSync(pkg)) return `${c.name} is not installed (run npm install: it is a devDependency)`;
  const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
  return version === c.version ? false : `${c.name} ${version} is installed; these tests pin ${c.version}`;
}

/** The file a client trusts: the server's CA when it has one, else its self-signed certificate. */
export function trustAnchor(stateDir: string): string {
  const ca = join(stateDir, 'secrets', 'ca_cert.pem');
  return existsSync(ca) ? ca : join(stateDir, 'secrets', 'tls_cert.pem');
}

export interface ClientSandbox {
  /** The client's HOME (mcp-remote keeps its state in HOME/.mcp-auth unless told otherwise). */
  home: string;
  /** mcp-remote's MCP_REMOTE_CONFIG_DIR. */
  configDir: string;
  /**
   * A complete environment for the client, built from nothing (the test runner's own variables, a
   * display, a proxy or NODE_TLS_REJECT_UNAUTHORIZED never leak in): node first on PATH, the sandbox
   * HOME, the CA to trust, and the no-browser guard preloaded into every node process it starts.
   */
  env(
    extra?: Record<string, string>,
    opts?: { trust?: string | null; allowPrograms?: string[] },
  ): Record<string, string>;
  /** Programs the client tried to start and was refused (the guard's log). */
  blockedSpawns(): { via: string; program: string; args: string[] }[];
  cleanup(): void;
}

export function clientSandbox(defaultTrust: string): ClientSandbox {
  const root = mkdtempSync(join(tmpdir(), 'ucmcp-npm-client-'));
  const home = join(root, 'home');
  const configDir = join(home, '.mcp-auth');
  const spawnLog = join(root, 'spawns.log');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return {
    home,
    configDir,
    env(extra = {}, opts = {}) {
      const trust = opts.trust === undefined ? defaultTrust : opts.trust;
      return {
        PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
        HOME: home,
        MCP_REMOTE_CONFIG_DIR: configDir,
        NODE_OPTIONS: `--import=${NO_BROWSER}`,
        UCMCP_SPAWN_LOG: spawnLog,
        UCMCP_SPAWN_ALLOW: (opts.allowPrograms ?? []).join(','),
        ...(trust ? { NODE_EXTRA_CA_CERTS: trust } : {}),
        ...extra,
      };
    },
    blockedSpawns() {
      if (!existsSync(spawnLog)) return [];
      return readFileSync(spawnLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { via: string; program: string; args: string[] });
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs a command to completion, killed (its whole process group: the Inspector CLI runs a second node
 * process) when it outlives `timeoutMs`.
 */
export function runCommand(
  command: string,
  args: string[],
  o: { env: Record<string, string>; cwd?: string; timeoutMs?: number },
): Promise<RunResult> {
  const child = spawn(command, args, {
    cwd: o.cwd ?? PROJECT_ROOT,
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // already gone
    }
  }, o.timeoutMs ?? 60_000);
  return new Promise((resolve, reject) => {
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/**
 * The Inspector CLI as `npx @modelcontextprotocol/inspector-cli --cli …` runs it (its bin, under node).
 * Its working directory is its own build folder: 1.0.3 looks for its package.json at `../package.json`
 * relative to the working directory (modelcontextprotocol/inspector#1334) and fails from most others.
 */
export function runInspectorCli(
  args: string[],
  o: { env: Record<string, string>; timeoutMs?: number },
): Promise<RunResult> {
  const build = join(INSPECTOR_CLI.dir, 'build');
  return runCommand(process.execPath, [join(build, 'cli.js'), '--cli', ...args], { ...o, cwd: build });
}

/** mcp-remote's proxy entry (its `mcp-remote` bin). */
export const MCP_REMOTE_BIN = join(MCP_REMOTE.dir, 'dist', 'proxy.js');

/** A licensed server with one auditor client (`ada`) and a sandbox trusting its CA: what each client test needs. */
export interface ClientTestServer {
  k: TestKernel;
  token: string;
  sandbox: ClientSandbox;
  stop(): Promise<void>;
}

export async function startClientTestServer(): Promise<ClientTestServer> {
  const k = await startTestKernel({
    license: { products: ['cucm', 'imp', 'cuc'] },
    env: { AUTH_CLIENTS: 'ada:auditor:cucm+imp+cuc', AUTH_BCRYPT_COST: '4' },
  });
  const sandbox = clientSandbox(trustAnchor(k.stateDir));
  return {
    k,
    token: startupToken(k.stateDir, 'ada'),
    sandbox,
    stop: async () => {
      await k.stop();
      sandbox.cleanup();
    },
  };
}
