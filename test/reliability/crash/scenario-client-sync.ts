// Crash scenario (c): client sync. Each cycle changes AUTH_CLIENTS (clients added, kept, removed and
// re-added under an old name) and starts the server with it, killing that start midway: at a random
// moment (`kill: 'random'`), or just before a chosen file-system step of it, optionally half done
// (`kill: 'step'`, through crash-hook.ts). The server is then started again with the same AUTH_CLIENTS,
// and:
// - it starts (a half-done sync never leaves a state it refuses);
// - clients/ holds exactly the configured clients, whole;
// - a kept client keeps its secret, its tokens and its stored credential;
// - a removed client's tokens are refused, and a client re-created under an old name has a new secret,
//   none of the old tokens (refused AUTH_REVOKED) and none of the old credentials;
// - every startup token replaced by a start, completed or killed, is refused, the current one accepted.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { statePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';
import type { TestKernel } from '../../helpers/kernel.ts';
import { basicAuth, postForm } from '../../helpers/oauth.ts';
import { serverFetch, spawnServer, type ServerProcess } from '../../helpers/server-process.ts';
import {
  checkState,
  crashStateDir,
  freePort,
  newResult,
  rng,
  sleep,
  startAndWait,
  type ScenarioOptions,
  type ScenarioResult,
} from './harness.ts';
import { StartupTokens, statusOf } from './startup-tokens.ts';

const POOL = ['c1', 'c2', 'c3', 'c4', 'c5'];
const HOOK = join(import.meta.dirname, 'crash-hook.ts');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** One life of a client name, from its creation to its removal. */
interface Generation {
  secret: string;
  /** Tokens obtained with client_credentials. */
  tokens: string[];
  /** The credential stored for it (through the vault, as the store tool does), if any. */
  credential?: string;
}

export interface ClientSyncOptions extends ScenarioOptions {
  kill?: 'random' | 'step';
}

export async function clientSync(o: ClientSyncOptions): Promise<ScenarioResult> {
  const mode = o.kill ?? 'random';
  const result = newResult(`client sync (${mode} kills)`, o);
  const r = rng(o.seed);
  const state = crashStateDir('ucmcp-crash-sync-');
  const hookLog = join(state.dir, '..', `${state.dir.split('/').at(-1)}.steps`);
  const port = await freePort();
  const env = (clients: string[]): Record<string, string> => ({
    AUTH_CLIENTS: clients.map((c) => `${c}:operator:cucm`).join(','),
    AUTH_BLACKLIST_THRESHOLD: '1000000',
  });
  let current = ['c1', 'c2'];
  const live = new Map<string, Generation>();
  const retired: { client: string; gen: Generation }[] = [];
  const startup = new StartupTokens(state.dir, POOL);
  let server: ServerProcess | undefined;
  let vault: Vault | undefined;
  let steps = 40;
  let startupMs = 1_500;
  try {
    ({ server } = await startAndWait({ stateDir: state.dir, port, env: env(current) }, result));
    startup.observe();
    vault = Vault.open(statePaths(state.dir), { write: () => undefined }, silent);
    await enrol(state.dir, port, current, live, vault, r, result);
    for (let i = 1; i <= o.iterations; i++) {
      await server.stop();
      const next = nextClients(current, r);
      const removed = current.filter((c) => !next.includes(c));
      // Sometimes the operator rolls the change back before the restart: clients the killed start was
      // removing are configured again, and must come back whole or as new, never half purged.
      const rollback = r.next() < 0.3;
      const restartWith = rollback ? current : next;

      // The start that is killed midway.
      const at = mode === 'step' ? r.int(1, steps + 2) : 0;
      rmSync(hookLog, { force: true });
      const victim = spawnServer({
        stateDir: state.dir,
        port,
        env: {
          ...env(next),
          ...(mode === 'step'
            ? {
                CRASH_HOOK_AT: String(at),
                CRASH_HOOK_LOG: hookLog,
                CRASH_HOOK_TORN: r.next() < 0.5 ? '1' : '0',
              }
            : {}),
        },
        ...(mode === 'step' ? { preload: [HOOK] } : {}),
      });
      let midStart: boolean;
      if (mode === 'random') {
        const outcome = await Promise.race([
          victim.ready.then(
            () => 'ready' as const,
            () => 'exited' as const,
          ),
          sleep(r.int(0, startupMs)).then(() => 'timer' as const),
        ]);
        midStart = outcome === 'timer';
        await victim.kill();
      } else {
        const outcome = await Promise.race([
          victim.ready.then(
            () => 'ready' as const,
            () => 'exited' as const,
          ),
          victim.exited.then(() => 'exited' as const),
        ]);
        midStart = outcome === 'exited' && (await victim.exited).signal === 'SIGKILL';
        if (!midStart && outcome === 'exited')
          result.violations.push(
            `cycle ${i}: the start to be killed failed by itself: ${victim.output().trim()}`,
          );
        await victim.kill();
        if (existsSync(hookLog)) {
          const counted = readFileSync(hookLog, 'utf8').split('\n').filter(Boolean).length;
          if (!midStart) steps = counted;
        }
      }
      result.iterations++;
      if (midStart) result.killsMidOperation++;
      startup.observe();

      try {
        ({ server } = await startAndWait({ stateDir: state.dir, port, env: env(restartWith) }, result));
      } catch (err) {
        result.violations.push(
          `cycle ${i} (${describeKill(mode, at)}): the server did not start again: ${(err as Error).message}`,
        );
        return result;
      }
      startupMs = Math.max(...result.startupMs.slice(-3));
      await checkState(state.dir, i, result);
      const before = result.violations.length;
      const fetch = serverFetch(state.dir);
      const k = { url: `https://127.0.0.1:${port}`, fetch } as unknown as TestKernel;
      try {
        for (const c of current.filter((x) => !restartWith.includes(x))) {
          retired.push({ client: c, gen: live.get(c) as Generation });
          live.delete(c);
        }
        // A client the killed start was removing, configured again: whole (its old secret works) or new.
        for (const c of rollback ? removed : []) {
          const gen = live.get(c) as Generation;
          if (!(await clientCredentials(k, c, gen.secret))) {
            retired.push({ client: c, gen });
            live.delete(c);
          } else {
            // Kept whole: its tokens may have been revoked by the purge that was cut; they are not checked.
            gen.tokens = [];
          }
        }
      } finally {
        await fetch.close();
      }
      current = restartWith;
      await verify(state.dir, port, i, current, live, retired, vault, startup, result);
      if (result.violations.length > before && mode === 'step') {
        result.violations.push(`cycle ${i}: the kill was ${describeKill(mode, at)}`);
      }
      await enrol(state.dir, port, current, live, vault, r, result);
      o.log?.(
        `cycle ${i}: clients ${current.join(',')}, ${rollback ? `rolled back (killed start removed ${removed.join(',') || '-'})` : `removed ${removed.join(',') || '-'}`}, ${midStart ? 'killed mid-start' : 'killed after the start'} ${mode === 'step' ? `(step ${at} of ${steps})` : ''}`,
      );
    }
    return result;
  } finally {
    await server?.stop();
    rmSync(hookLog, { force: true });
    state.cleanup();
  }
}

function describeKill(mode: string, at: number): string {
  return mode === 'step' ? `just before file-system step ${at}` : 'at a random moment';
}

/** A different, non-empty set: usually one removed and one added, sometimes an old name back. */
function nextClients(current: string[], r: ReturnType<typeof rng>): string[] {
  for (;;) {
    const next = POOL.filter(() => r.next() < 0.5);
    if (next.length > 0 && next.length <= 4 && next.join() !== current.join()) return next;
  }
}

/** After a completed start: each client not known yet gets its generation (secret, a token, maybe a credential). */
async function enrol(
  stateDir: string,
  port: number,
  clients: string[],
  live: Map<string, Generation>,
  vault: Vault,
  r: ReturnType<typeof rng>,
  result: ScenarioResult,
): Promise<void> {
  const fetch = serverFetch(stateDir);
  const k = { url: `https://127.0.0.1:${port}`, fetch } as unknown as TestKernel;
  try {
    for (const c of clients) {
      let gen = live.get(c);
      if (!gen) {
        gen = {
          secret: readFileSync(join(stateDir, 'clients', c, 'secrets', '.client_secret'), 'utf8').trim(),
          tokens: [],
        };
        live.set(c, gen);
        if (r.next() < 0.35) {
          gen.credential = `pw-${c}-${r.int(0, 1e9)}`;
          await vault
            .forClient(c)
            .store('cucm', 'axl', 'n1.sync.example', { username: 'axl', password: gen.credential });
          result.acknowledged++;
        }
      }
      const token = await clientCredentials(k, c, gen.secret);
      if (token) gen.tokens.push(token);
      else result.violations.push(`client ${c}: its secret is refused`);
    }
  } finally {
    await fetch.close();
  }
}

async function clientCredentials(k: TestKernel, client: string, secret: string): Promise<string | undefined> {
  const res = await postForm(
    k,
    '/token',
    { grant_type: 'client_credentials' },
    { authorization: basicAuth(client, secret) },
  );
  const body = (await res.json()) as { access_token?: string };
  return res.status === 200 ? body.access_token : undefined;
}

async function verify(
  stateDir: string,
  port: number,
  i: number,
  clients: string[],
  live: Map<string, Generation>,
  retired: { client: string; gen: Generation }[],
  vault: Vault,
  startup: StartupTokens,
  result: ScenarioResult,
): Promise<void> {
  const bad = (m: string): void => void result.violations.push(`cycle ${i}: ${m}`);
  const dirs = readdirSync(join(stateDir, 'clients')).filter((d) =>
    statSync(join(stateDir, 'clients', d)).isDirectory(),
  );
  if (dirs.sort().join() !== [...clients].sort().join())
    bad(`clients/ holds ${dirs.join(',')} but AUTH_CLIENTS is ${clients.join(',')}`);
  const fetch = serverFetch(stateDir);
  const k = { url: `https://127.0.0.1:${port}`, fetch } as unknown as TestKernel;
  try {
    for (const c of clients) {
      const gen = live.get(c);
      const vaultDir = join(stateDir, 'clients', c, 'vault');
      if (gen) {
        // Kept: same secret, its tokens valid, its credential there.
        if (!(await clientCredentials(k, c, gen.secret))) bad(`kept client ${c} lost its secret`);
        for (const t of gen.tokens.slice(-2)) {
          const got = await statusOf(k, t);
          if (got !== 'OK') bad(`a token of kept client ${c} answers ${got}`);
        }
        if (gen.credential) {
          const got = await vault
            .forClient(c)
            .get('cucm', 'axl', 'n1.sync.example')
            .then(
              (s) => s.password,
              (err: Error) => err.message,
            );
          if (got !== gen.credential) bad(`kept client ${c} lost its credential: ${got}`);
        }
      } else {
        // New, or re-created under an old name: nothing of a predecessor.
        const secret = readFileSync(join(stateDir, 'clients', c, 'secrets', '.client_secret'), 'utf8').trim();
        if (!(await clientCredentials(k, c, secret)))
          bad(`new client ${c}: the secret in .client_secret is refused`);
        if (existsSync(vaultDir) && readdirSync(vaultDir).some((f) => !f.endsWith('.tmp')))
          bad(`re-created client ${c} inherited vault files: ${readdirSync(vaultDir).join(',')}`);
      }
    }
    for (const { client, gen } of retired.slice(-10)) {
      const configured = clients.includes(client);
      const newGen = live.get(client);
      if (configured && newGen?.secret !== gen.secret && (await clientCredentials(k, client, gen.secret)))
        bad(`re-created client ${client} accepts its predecessor's secret`);
      for (const t of gen.tokens.slice(-2)) {
        const got = await statusOf(k, t);
        if (got === 'OK' || (configured && got !== 'AUTH_REVOKED'))
          bad(
            `a token of removed client ${client} answers ${got}${configured ? ' (re-created: expected AUTH_REVOKED)' : ''}`,
          );
      }
    }
    startup.setClients(clients);
    await startup.check(k, i, result);
    startup.setClients(POOL);
  } finally {
    await fetch.close();
  }
}
