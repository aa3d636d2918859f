// Crash scenario (a): credential writes. An admin client stores, updates and deletes AXL credentials
// through the real MCP tools (three calls at a time, on distinct hosts) while the server is SIGKILLed at a
// random moment. After each restart every credential whose call was answered must be there with the
// acknowledged password (or gone, for an answered delete); a call cut by the kill may have landed or not,
// but nothing else. The credentials are read back by decrypting the vault file, and through the server's
// own list tool.
import { statePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';
import type { TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import {
  serverFetch,
  signedInstall,
  type ServerProcess,
  type SignedInstall,
} from '../../helpers/server-process.ts';
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

const CLIENT = 'ops';
const HOSTS = Array.from({ length: 12 }, (_, k) => `n${k}.crash.example`);
const WORKERS = 3;

type Op = 'store' | 'update' | 'delete';
/** A host's credential: its password, or null when none is stored. */
type Value = string | null;

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function credentialWrites(
  o: ScenarioOptions & { install?: SignedInstall },
): Promise<ScenarioResult> {
  const result = newResult('credential writes', o);
  const r = rng(o.seed);
  const install = o.install ?? (await signedInstall());
  const state = crashStateDir('ucmcp-crash-cred-');
  await install.license(state.dir);
  const port = await freePort();
  const opts = {
    stateDir: state.dir,
    port,
    installDir: install.dir,
    env: { AUTH_CLIENTS: `${CLIENT}:admin:cucm` },
  };
  const model = new Map<string, Value>(HOSTS.map((h) => [h, null]));
  let server: ServerProcess | undefined;
  try {
    ({ server } = await startAndWait(opts, result));
    // The test reads the vault as the server wrote it (one key derivation for the whole run).
    const vault = Vault.open(statePaths(state.dir), { write: () => undefined }, silent).forClient(CLIENT);
    for (let i = 1; i <= o.iterations; i++) {
      const fetch = serverFetch(state.dir);
      const k = { url: `https://127.0.0.1:${port}`, fetch } as unknown as TestKernel;
      const mcp = await connectMcp(k, startupToken(state.dir, CLIENT));
      await checkListed(mcp, model, i, result);

      // Writes until the kill: each worker takes a host nobody else is writing.
      const busy = new Map<string, { op: Op; value: Value }>();
      const unanswered = new Map<string, { op: Op; value: Value }>();
      let killed = false;
      let n = 0;
      const worker = async (): Promise<void> => {
        while (!killed) {
          const free = HOSTS.filter((h) => !busy.has(h));
          const host = r.pick(free);
          const current = model.get(host) ?? null;
          const op: Op = current === null ? 'store' : r.next() < 0.7 ? 'update' : 'delete';
          const value: Value = op === 'delete' ? null : `pw-${i}-${++n}-${r.int(0, 1e9)}`;
          busy.set(host, { op, value });
          const args: Record<string, unknown> = { host };
          if (value !== null) Object.assign(args, { username: 'axl', password: value });
          let answered = false;
          try {
            const res = await mcp.call(`cucm_${op}_credentials`, args);
            answered = true;
            if (res.isError) {
              result.violations.push(
                `cycle ${i}: ${op} on ${host} refused: ${JSON.stringify(res.structuredContent).slice(0, 200)}`,
              );
            } else {
              model.set(host, value);
              result.acknowledged++;
            }
          } catch {
            // the kill cut the call: resolved against the vault after the restart
          }
          if (!answered) unanswered.set(host, { op, value });
          busy.delete(host);
          if (!answered) return;
        }
      };
      const workers = Array.from({ length: WORKERS }, () => worker());
      // The first write of a process derives the client's key (seconds of PBKDF2): the kill is aimed at
      // the writes after it, at a random moment.
      const t0 = result.acknowledged;
      const deadline = Date.now() + 30_000;
      while (result.acknowledged === t0 && Date.now() < deadline && result.violations.length === 0)
        await sleep(5);
      await sleep(r.int(0, 600));
      killed = true;
      await server.kill();
      // Answers already received are processed first; then closing the client ends the cut calls
      // (the SDK would otherwise wait for its request timeout).
      await sleep(20);
      await mcp.close().catch(() => undefined);
      await Promise.allSettled(workers);
      await fetch.close();
      result.iterations++;
      result.inFlight += unanswered.size;
      if (unanswered.size > 0) result.killsMidOperation++;

      try {
        ({ server } = await startAndWait(opts, result));
      } catch (err) {
        result.violations.push(`cycle ${i}: the server did not start again: ${(err as Error).message}`);
        return result;
      }
      await checkState(state.dir, i, result);
      // Every host is what was acknowledged, or what an unanswered call would have made it.
      const stored = new Map((await vault.list('cucm')).map((e) => [e.host, e]));
      for (const host of HOSTS) {
        let actual: Value = null;
        if (stored.has(host)) {
          try {
            actual = (await vault.get('cucm', 'axl', host)).password;
          } catch (err) {
            result.violations.push(`cycle ${i}: ${host} does not decrypt: ${(err as Error).message}`);
            continue;
          }
        }
        const allowed = [model.get(host) ?? null];
        const cut = unanswered.get(host);
        if (cut) allowed.push(cut.value);
        if (!allowed.includes(actual)) {
          result.violations.push(
            `cycle ${i}: ${host} holds ${describe(actual)}, expected ${allowed.map(describe).join(' or ')}`,
          );
        }
        model.set(host, actual);
      }
      o.log?.(`cycle ${i}: ${unanswered.size} writes cut by the kill, ${stored.size} credentials stored`);
    }
    const fetch = serverFetch(state.dir);
    const mcp = await connectMcp(
      { url: `https://127.0.0.1:${port}`, fetch } as unknown as TestKernel,
      startupToken(state.dir, CLIENT),
    );
    await checkListed(mcp, model, o.iterations + 1, result);
    await mcp.close();
    await fetch.close();
    return result;
  } finally {
    await server?.stop();
    state.cleanup();
    if (!o.install) install.cleanup();
  }
}

/** The server's own view (cucm_list_credentials) matches what the vault file holds. */
async function checkListed(
  mcp: ConnectedClient,
  model: Map<string, Value>,
  i: number,
  result: ScenarioResult,
): Promise<void> {
  const res = await mcp.call('cucm_list_credentials');
  const listed = ((res.structuredContent?.credentials ?? []) as { host: string }[]).map((c) => c.host).sort();
  const expected = [...model]
    .filter(([, v]) => v !== null)
    .map(([h]) => h)
    .sort();
  if (res.isError || JSON.stringify(listed) !== JSON.stringify(expected))
    result.violations.push(
      `cycle ${i}: the server lists ${listed.join(',')} but the vault holds ${expected.join(',')}`,
    );
}

function describe(v: Value): string {
  return v === null ? 'nothing' : v;
}
