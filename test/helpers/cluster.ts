// Several server instances as one, for the scale-out tests and the benchmark: one real redis-server,
// one state directory that every instance shares (as a shared volume would be), N server processes
// (STATE_BACKEND=redis://..., INSTANCE_ID=i1..iN, each on its own port) and a round-robin balancer in
// front that the instances trust as a proxy and that PUBLIC_BASE_URL names (the issuer of every token).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBalancer, type Balancer } from './balancer.ts';
import type { TestKernel } from './kernel.ts';
import { startupToken } from './mcp-client.ts';
import { startRedis, type RedisHandle } from './redis-server.ts';
import {
  freePort,
  serverFetch,
  signedInstall,
  spawnServer,
  type ServerProcess,
  type SignedInstall,
} from './server-process.ts';

export interface ClusterOptions {
  instances?: number;
  /** Settings for every instance (AUTH_CLIENTS, limits...). */
  env?: Record<string, string>;
  /** Run a signed install with a license (the product plugins and their tools load); else the kernel alone. */
  signed?: boolean;
  /** `local`: no redis, each instance alone (only meaningful with one instance: the benchmark's baseline). */
  backend?: 'redis' | 'local';
  /** Runs on the empty state directory before the first instance starts (profiles, vault seeds...). */
  prepare?: (stateDir: string) => Promise<void> | void;
}

export interface ClusterInstance {
  id: string;
  /** https://127.0.0.1:<its own port> (to reach this one instance, past the balancer). */
  url: string;
  port: number;
  process(): ServerProcess;
  /** SIGKILL (the balancer finds it dead on its next request). */
  kill(): Promise<void>;
  /** SIGTERM, clean shutdown. */
  stop(): Promise<number | null>;
  /** Starts it again on the same port and puts it back in the rotation. */
  start(): Promise<void>;
}

export interface Cluster {
  /** The balancer's URL (the public base URL of every instance). */
  url: string;
  stateDir: string;
  /** HTTPS fetch pinned to the shared certificate (works for the balancer and every instance). */
  fetch: ReturnType<typeof serverFetch>;
  /** `{ url, fetch }` of the balancer, in the shape the MCP and OAuth test helpers take. */
  kernel: TestKernel;
  /** The same shape for one instance directly. */
  direct(i: number): TestKernel;
  redis: RedisHandle | undefined;
  balancer: Balancer;
  instances: ClusterInstance[];
  /** A client's startup token (AUTH_CLIENTS). */
  token(client: string): string;
  close(): Promise<void>;
}

export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const n = o.instances ?? 3;
  const redis = o.backend === 'local' ? undefined : await startRedis();
  const stateDir = mkdtempSync(join(tmpdir(), 'ucmcp-cluster-'));
  let install: SignedInstall | undefined;
  const procs: ServerProcess[] = [];
  let balancer: Balancer | undefined;
  let fetch: ReturnType<typeof serverFetch> | undefined;
  const close = async (): Promise<void> => {
    await balancer?.close();
    await fetch?.close();
    // Killed, not stopped: a clean shutdown of three instances costs seconds and proves nothing here.
    await Promise.all(procs.map((p) => p.kill()));
    await redis?.cleanup();
    install?.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    if (o.signed) {
      install = await signedInstall();
      await install.license(stateDir);
    }
    await o.prepare?.(stateDir);
    const balancerPort = await freePort();
    const ports: number[] = [];
    for (let i = 0; i < n; i++) ports.push(await freePort());
    const env = (i: number): Record<string, string> => ({
      ...(redis ? { STATE_BACKEND: redis.url } : {}),
      INSTANCE_ID: `i${i + 1}`,
      TRUSTED_PROXIES: '127.0.0.1',
      PUBLIC_BASE_URL: `https://127.0.0.1:${balancerPort}`,
      // Three instances beside other test files on two cores stall their event loops for more than the
      // default second now and then: a store command would time out (a coded 503) though the store
      // answered. Tests of the timeout itself set their own.
      ...(redis ? { STATE_BACKEND_TIMEOUT_MS: '5000' } : {}),
      ...o.env,
    });
    const spawnOne = (i: number): ServerProcess =>
      spawnServer({
        stateDir,
        port: ports[i] as number,
        env: env(i),
        ...(install ? { installDir: install.dir } : {}),
      });
    // The first instance alone creates the keys, the certificate and the clients' files; the others
    // then start on what it made (as a rolling start on a fresh volume does).
    procs[0] = spawnOne(0);
    await procs[0].ready;
    for (let i = 1; i < n; i++) procs[i] = spawnOne(i);
    await Promise.all(procs.map((p) => p.ready));
    const urls = ports.map((p) => `https://127.0.0.1:${p}`);
    balancer = await startBalancer({ backends: urls, stateDir, port: balancerPort });
    const b = balancer;
    fetch = serverFetch(stateDir);
    const f = fetch;
    const instances: ClusterInstance[] = urls.map((url, i) => ({
      id: `i${i + 1}`,
      url,
      port: ports[i] as number,
      process: () => procs[i] as ServerProcess,
      kill: () => (procs[i] as ServerProcess).kill(),
      stop: () => (procs[i] as ServerProcess).stop(),
      async start() {
        procs[i] = spawnOne(i);
        await (procs[i] as ServerProcess).ready;
        b.restore(i);
      },
    }));
    return {
      url: b.url,
      stateDir,
      fetch: f,
      kernel: { url: b.url, fetch: f } as unknown as TestKernel,
      direct: (i) => ({ url: urls[i], fetch: f }) as unknown as TestKernel,
      redis,
      balancer: b,
      instances,
      token: (client) => startupToken(stateDir, client),
      close,
    };
  } catch (err) {
    const out = procs.map((p, i) => `--- i${i + 1}:\n${p.output().slice(-4000)}`).join('\n');
    await close();
    throw new Error(`the cluster did not start: ${(err as Error).message}\n${out}`, { cause: err });
  }
}
