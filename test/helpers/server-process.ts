// The server as a real, separate process (`node --import ./kernel/loader/register.mjs kernel/main.ts`,
// as `npm start` runs it), for tests that must kill
// it (SIGKILL mid-operation) and start it again on the same state directory and port.
//
// Two ways to run it:
// - from the checkout (default): INTEGRITY_MODE=enforce on an unsigned tree loads no plugin bundle, so the
//   kernel alone runs (auth, clients, vault, backups) and starts in about a second;
// - from a signed install (`signedInstall()`): a staged copy of this tree signed by the test vendor, as
//   `npm run demo` does, with a license from that vendor in the state directory: the product plugins load
//   and their tools work. The vendor key cannot be handed to a child process any other way.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { serverLoaderArgs } from '../../kernel/loader/index.ts';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { stageSignedTree } from '../../kernel/vendor/stage.ts';
import { pinnedFetch } from './https-client.ts';
import { testVendor, writeTestLicense, type TestLicense } from './license.ts';

export interface ServerProcessOptions {
  stateDir: string;
  /** A fixed port: the issuer (every token's `iss`) includes it, so tokens survive a restart. */
  port: number;
  /** Settings added to (or overriding) the defaults below. */
  env?: Record<string, string>;
  /** Run this install (a signed staged tree) instead of the checkout. */
  installDir?: string;
  /** Modules loaded with --import before the server (fault injection). */
  preload?: string[];
}

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves with the server URL once it prints its "listening on" line; rejects if it exits first. */
  ready: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** performance.now() when the process was spawned. */
  spawnedAt: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (clean shutdown), then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The environment every spawned server gets; `env` overrides. */
export function serverEnv(o: ServerProcessOptions): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  // A test file's own runner context must not leak into the server (it changes how node reports).
  delete base.NODE_TEST_CONTEXT;
  delete base.NODE_OPTIONS;
  return {
    ...base,
    STATE_DIR: o.stateDir,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(o.port),
    LOGGING_CONSOLE_ENABLED: '0',
    ENV_FILE: '',
    INTEGRITY_MODE: 'enforce',
    AUTH_BCRYPT_COST: '4',
    BACKUP_ENABLED: '0',
    ...o.env,
  };
}

export function spawnServer(o: ServerProcessOptions): ServerProcess {
  const root = o.installDir ?? PROJECT_ROOT;
  const spawnedAt = performance.now();
  const args = serverLoaderArgs(join(root, 'kernel/main.ts'), {
    root,
    ...(o.preload ? { preload: o.preload } : {}),
  });
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: serverEnv(o),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (https:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then(({ code, signal }) =>
      reject(new Error(`the server exited during startup (code ${code}, signal ${signal}): ${out.trim()}`)),
    );
  });
  // A caller that kills before "listening" does not care about this rejection.
  ready.catch(() => undefined);
  return {
    child,
    ready,
    exited,
    spawnedAt,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return (await exited).code;
    },
  };
}

/** HTTPS fetch pinned to the server's current certificate (read from the state directory). */
export function serverFetch(stateDir: string): ReturnType<typeof pinnedFetch> {
  return pinnedFetch(readFileSync(join(stateDir, 'secrets', 'tls_cert.pem'), 'utf8'));
}

/** A free TCP port on loopback (pinned as SERVER_PORT across restarts). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const addr = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return typeof addr === 'object' && addr ? addr.port : 0;
}

export interface SignedInstall {
  dir: string;
  /** Writes a license from the install's vendor into a state directory. */
  license(stateDir: string, lic?: TestLicense): Promise<void>;
  cleanup(): void;
}

/**
 * A copy of this tree signed by the test vendor (what `npm run demo` runs, about half a second to
 * stage): run in enforce mode it verifies, loads the product plugins and trusts the vendor's licenses.
 */
export async function signedInstall(): Promise<SignedInstall> {
  const parent = mkdtempSync(join(tmpdir(), 'ucmcp-install-'));
  const dir = join(parent, 'install');
  const v = testVendor();
  await stageSignedTree({ from: PROJECT_ROOT, to: dir, privateKey: v.privateKey, publisher: v.publisher });
  return {
    dir,
    license: (stateDir, lic = { products: ['cucm', 'imp', 'cuc'] }) => writeTestLicense(stateDir, lic),
    cleanup: () => rmSync(parent, { recursive: true, force: true }),
  };
}
