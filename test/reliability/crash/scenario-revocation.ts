// Crash scenario (b): token revocation. A client obtains access tokens (client_credentials) and
// access + refresh token pairs (authorization code with PKCE through the login form) and revokes them
// at POST /revoke, two requests at a time, while the server is SIGKILLed at a random moment. After each
// restart:
// - every revocation answered 200 holds: the access token is refused AUTH_REVOKED; for a refresh token,
//   its family's access token is refused and the refresh token no longer redeems;
// - a revocation cut by the kill, sent again by the client (as a client does when its request failed),
//   takes effect just the same;
// - a token never revoked still works (nothing is revoked by accident);
// - every startup token replaced by a restart is refused, the current one accepted.
import type { TestKernel } from '../../helpers/kernel.ts';
import { basicAuth, bearer, codeFlow, postForm } from '../../helpers/oauth.ts';
import { serverFetch, type ServerProcess } from '../../helpers/server-process.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

const CLIENT = 'ops';
const REDIRECT = 'http://127.0.0.1/cb';

interface Held {
  kind: 'access' | 'refresh';
  token: string;
  /** The access token issued with a refresh token (its family's). */
  access?: string;
  state: 'live' | 'revoked' | 'cut';
  /** Cycle in which it was issued or last changed: only recent ones are checked each cycle. */
  touched: number;
}

export async function revocation(o: ScenarioOptions): Promise<ScenarioResult> {
  const result = newResult('token revocation', o);
  const r = rng(o.seed);
  const state = crashStateDir('ucmcp-crash-revoke-');
  const port = await freePort();
  const opts = {
    stateDir: state.dir,
    port,
    env: {
      AUTH_CLIENTS: `${CLIENT}:operator:cucm:${REDIRECT}`,
      // The checks present refused tokens on purpose; the blacklist is not what is tested here.
      AUTH_BLACKLIST_THRESHOLD: '1000000',
    },
  };
  const held: Held[] = [];
  const startup = new StartupTokens(state.dir, [CLIENT]);
  let server: ServerProcess | undefined;
  try {
    ({ server } = await startAndWait(opts, result));
    startup.observe();
    const secret = readFileSync(
      join(state.dir, 'clients', CLIENT, 'secrets', '.client_secret'),
      'utf8',
    ).trim();
    for (let i = 1; i <= o.iterations; i++) {
      const fetch = serverFetch(state.dir);
      const k = { url: `https://127.0.0.1:${port}`, fetch } as unknown as TestKernel;
      const auth = bearer(startup.current(CLIENT));
      let killed = false;
      let answered = 0;
      const cut: Held[] = [];

      const issue = async (): Promise<void> => {
        if (r.next() < 0.7) {
          const res = await postForm(
            k,
            '/token',
            { grant_type: 'client_credentials' },
            {
              authorization: basicAuth(CLIENT, secret),
            },
          );
          const body = (await res.json()) as { access_token?: string };
          if (res.status !== 200 || !body.access_token)
            throw new Error(`client_credentials answered ${res.status}`);
          held.push({ kind: 'access', token: body.access_token, state: 'live', touched: i });
        } else {
          const t = await codeFlow(k, { name: CLIENT, secret, redirectUri: REDIRECT });
          held.push({
            kind: 'refresh',
            token: t.refresh_token,
            access: t.access_token,
            state: 'live',
            touched: i,
          });
        }
      };
      const revoke = async (h: Held): Promise<void> => {
        h.state = 'cut';
        h.touched = i;
        const res = await postForm(
          k,
          '/revoke',
          { token: h.token, token_type_hint: h.kind === 'refresh' ? 'refresh_token' : 'access_token' },
          auth,
        );
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`/revoke answered ${res.status}`);
        h.state = 'revoked';
        result.acknowledged++;
      };
      const worker = async (): Promise<void> => {
        while (!killed) {
          const live = held.filter((h) => h.state === 'live');
          const target = live.length > 0 && r.next() < 0.6 ? r.pick(live) : undefined;
          try {
            if (target) await revoke(target);
            else await issue();
            answered++;
          } catch (err) {
            if (target?.state === 'cut') cut.push(target);
            if (!killed) result.violations.push(`cycle ${i}: ${(err as Error).message}`);
            return;
          }
        }
      };
      const workers = [worker(), worker()];
      while (answered === 0 && !killed && result.violations.length === 0) await sleep(5);
      await sleep(r.int(0, 400));
      killed = true;
      await server.kill();
      await Promise.allSettled(workers);
      await fetch.close();
      result.iterations++;
      result.inFlight += cut.length;
      if (cut.length > 0) result.killsMidOperation++;

      try {
        ({ server } = await startAndWait(opts, result));
      } catch (err) {
        result.violations.push(`cycle ${i}: the server did not start again: ${(err as Error).message}`);
        return result;
      }
      startup.observe();
      await checkState(state.dir, i, result);
      const f2 = serverFetch(state.dir);
      const k2 = { url: k.url, fetch: f2 } as unknown as TestKernel;
      const auth2 = bearer(startup.current(CLIENT));
      // The client sends again what the kill cut.
      for (const h of cut) {
        const res = await postForm(k2, '/revoke', { token: h.token }, auth2);
        await res.arrayBuffer();
        if (res.status !== 200)
          result.violations.push(`cycle ${i}: the retried revocation answered ${res.status}`);
        h.state = 'revoked';
      }
      const older = held.filter((h) => h.touched < i && h.state === 'revoked');
      const sample = [
        ...held.filter((h) => h.touched === i),
        ...Array.from({ length: Math.min(5, older.length) }, () => r.pick(older)),
      ];
      for (const h of sample) await checkHeld(k2, h, i, result, CLIENT, secret);
      await startup.check(k2, i, result);
      await f2.close();
      o.log?.(
        `cycle ${i}: ${cut.length} revocations cut by the kill, ${held.filter((h) => h.state === 'revoked').length} revoked of ${held.length}`,
      );
    }
    return result;
  } finally {
    await server?.stop();
    state.cleanup();
  }
}

async function checkHeld(
  k: TestKernel,
  h: Held,
  i: number,
  result: ScenarioResult,
  client: string,
  secret: string,
): Promise<void> {
  const what = `${h.kind} token ${h.token.slice(-8)} (${h.state})`;
  const access = h.kind === 'access' ? h.token : (h.access as string);
  const got = await statusOf(k, access);
  const want = h.state === 'revoked' ? 'AUTH_REVOKED' : 'OK';
  if (got !== want)
    result.violations.push(`cycle ${i}: ${what}: its access token answers ${got}, expected ${want}`);
  if (h.kind === 'refresh' && h.state === 'revoked') {
    const res = await postForm(
      k,
      '/token',
      { grant_type: 'refresh_token', refresh_token: h.token },
      {
        authorization: basicAuth(client, secret),
      },
    );
    const body = (await res.json()) as { error?: string };
    if (res.status !== 400 || body.error !== 'invalid_grant')
      result.violations.push(`cycle ${i}: ${what} still redeems (${res.status})`);
  }
}
