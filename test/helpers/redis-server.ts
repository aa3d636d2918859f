// A real redis-server (the Debian package's /usr/bin/redis-server) for tests of the shared state backend:
// started on a free loopback port in a temporary directory, with no persistence, and stoppable and
// startable again on the same port (an outage, then the store's return). Tests that need it and find the
// binary absent skip with the reason redisAvailable() gives.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { freePort } from './server-process.ts';

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';

export interface RedisOptions {
  /** One ACL user (the default user is then switched off, so every client must log in). */
  acl?: { user: string; password: string };
  /** TLS only (no plain port): absolute paths, as redis-server requires. */
  tls?: { certFile: string; keyFile: string; caFile: string };
}

export interface RedisHandle {
  /** redis://127.0.0.1:<port> (rediss:// with TLS); never carries the password. */
  url: string;
  port: number;
  /** Everything the current process printed (its log goes to stdout). */
  output(): string;
  /** SIGTERM, then waits for the exit (nothing is saved: the data is gone, as after a real outage). */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it answers. */
  start(): Promise<void>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** Runs redis-cli against it (plain, no ACL only) and returns its output, e.g. cli('DBSIZE'). */
  cli(...args: string[]): string;
  /** Kills it and removes its directory. */
  cleanup(): Promise<void>;
}

/** Why the real-redis tests cannot run here, or undefined when they can. */
export function redisAvailable(): string | undefined {
  if (!existsSync(REDIS_SERVER)) return `redis-server not installed (${REDIS_SERVER})`;
  const v = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  if (v.status !== 0) return `redis-server does not run: ${v.stderr || v.error?.message}`;
  return undefined;
}

/** Starts a redis-server on a free loopback port and resolves once it answers PING. */
export async function startRedis(opts: RedisOptions = {}): Promise<RedisHandle> {
  const reason = redisAvailable();
  if (reason) throw new Error(reason);
  const dir = mkdtempSync(join(tmpdir(), 'ucmcp-redis-'));
  const port = await freePort();
  // A config file rather than arguments: ACL users can only be given there (and it keeps the password
  // off the process list).
  const conf = [
    'bind 127.0.0.1',
    'protected-mode yes',
    `dir ${dir}`,
    'save ""',
    'appendonly no',
    'daemonize no',
    'logfile ""',
    'databases 4',
  ];
  if (opts.tls) {
    conf.push(
      'port 0',
      `tls-port ${port}`,
      `tls-cert-file ${opts.tls.certFile}`,
      `tls-key-file ${opts.tls.keyFile}`,
      `tls-ca-cert-file ${opts.tls.caFile}`,
      'tls-auth-clients no',
    );
  } else conf.push(`port ${port}`);
  if (opts.acl) {
    conf.push('user default off', `user ${opts.acl.user} on >${opts.acl.password} ~* &* +@all`);
  }
  const confFile = join(dir, 'redis.conf');
  writeFileSync(confFile, `${conf.join('\n')}\n`, { mode: 0o600 });

  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let out = '';

  async function start(): Promise<void> {
    out = '';
    const c = spawn(REDIS_SERVER, [confFile], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    c.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (c.exitCode !== null || c.signalCode !== null)
        throw new Error(`redis-server exited during startup: ${out.trim()}`);
      if (await answers(port, opts.tls)) return;
      if (Date.now() > deadline) throw new Error(`redis-server did not answer within 10 s: ${out.trim()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function signal(sig: NodeJS.Signals): Promise<void> {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  }

  await start();
  return {
    url: `${opts.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    port,
    output: () => out,
    stop: () => signal('SIGTERM'),
    start,
    kill: () => signal('SIGKILL'),
    cli: (...args) => {
      const r = spawnSync(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${r.stderr || r.error?.message}`);
      return r.stdout.trim();
    },
    async cleanup() {
      await signal('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True when something on the port answers a PING (+PONG, or -NOAUTH when a login is required). */
function answers(port: number, tls: RedisOptions['tls']): Promise<boolean> {
  return new Promise((resolve) => {
    const sock: Socket = tls
      ? // The chain is verified against the test CA; the name is not (this only asks "is it up?").
        tlsConnect({
          host: '127.0.0.1',
          port,
          ca: readFileSync(tls.caFile),
          checkServerIdentity: () => undefined,
        })
      : netConnect({ host: '127.0.0.1', port });
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.once(tls ? 'secureConnect' : 'connect', () => sock.write('PING\r\n'));
    sock.once('data', (d: Buffer) => done(/^(\+PONG|-NOAUTH)/.test(d.toString())));
    sock.once('error', () => done(false));
  });
}
