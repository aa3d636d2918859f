// Every HTTP route the kernel serves (read from its own router, so a new endpoint is covered without
// editing this file), fuzzed over real HTTPS with hostile methods, request targets, queries, headers
// (invalid UTF-8, control bytes, wrong Host and Origin, bad credentials) and bodies (forms, JSON-RPC,
// random and broken bytes, lying lengths). Every answer must be a success or a documented coded error,
// within a time bound, with no 5xx but the documented 503s, no stack trace and no server secret; the
// server must keep serving and log no unexpected error. Seed: FUZZ_SEED (printed); runs: FUZZ_RUNS.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';
import { clientFiles } from '../../helpers/oauth.ts';
import { CASE_TIMEOUT_MS, fuzzParameters, fuzzRuns, fuzzSeed } from './support/fuzz-config.ts';
import {
  httpRequest,
  needsSession,
  routeCapture,
  substitute,
  type HttpFuzzContext,
  type Route,
} from './support/http-model.ts';
import { judgeHttpAnswer } from './support/http-oracle.ts';
import { openRawSession, unexpectedErrors } from './support/http-session.ts';
import { encodeRequest, rawExchange, type RawRequest } from './support/raw-https.ts';
import { serverSecrets, type Needle } from './support/secrets.ts';

const RUNS = 300;
const CLIENT = 'fuzz1';
const REDIRECT = 'http://127.0.0.1:9/cb';

/** The routes this file knows to exist; the router may hold more (they are fuzzed too). */
const KNOWN = ['/health', '/metrics', '/status', '/mcp', '/authorize', '/token', '/revoke'];

export function describeRequest(r: RawRequest): string {
  const body = r.body
    ? ` body(${r.body.length}): ${JSON.stringify(r.body.subarray(0, 160).toString('latin1'))}`
    : '';
  const headers = r.headers.map(
    ([n, v]) => `${n}: ${JSON.stringify(Buffer.isBuffer(v) ? v.toString('latin1') : v.slice(0, 80))}`,
  );
  return `${JSON.stringify(r.method)} ${JSON.stringify(r.target.slice(0, 200))} [${headers.join('; ')}]${body}`;
}

describe('every HTTP endpoint under hostile requests, over real HTTPS', () => {
  let k: TestKernel;
  let routes: Route[];
  let token: string;
  let needles: Needle[];
  let ctx: HttpFuzzContext;
  before(async () => {
    const capture = routeCapture();
    k = await startTestKernel({
      installers: [capture.installer],
      env: {
        AUTH_CLIENTS: `${CLIENT}:admin:cucm+imp+cuc:${REDIRECT},auditor1:auditor:cucm`,
        AUTH_BCRYPT_COST: '4',
        // Thousands of failed logins from 127.0.0.1 are the point here, not a reason to block it.
        AUTH_BLACKLIST_THRESHOLD: '1000000',
        HTTP_REQUEST_TIMEOUT_MS: '5000',
      },
      license: { products: ['cucm', 'imp', 'cuc'] },
    });
    routes = capture.routes();
    token = startupToken(k.stateDir, CLIENT);
    needles = serverSecrets(k.stateDir);
    ctx = {
      routes,
      port: k.kernel.port,
      clientId: CLIENT,
      clientSecret: clientFiles(k.stateDir, CLIENT).secret,
      redirectUri: REDIRECT,
    };
  });
  after(async () => {
    await k.stop();
  });

  it("fuzzes the router's own list of routes, which holds every known endpoint", (t) => {
    t.diagnostic(`routes: ${routes.map((r) => `${r.methods.join(',')} ${r.path}`).join(' | ')}`);
    const paths = routes.map((r) => r.path);
    for (const p of KNOWN) assert.ok(paths.includes(p), `${p} is served`);
    assert.ok(
      paths.some((p) => p.startsWith('/.well-known/')),
      'the OAuth metadata is served',
    );
  });

  it('answers every hostile request with success or a documented error, in time, with no secret', async (t) => {
    t.diagnostic(`seed ${fuzzSeed()} (FUZZ_SEED to replay), ${fuzzRuns(RUNS)} requests (FUZZ_RUNS)`);
    const host = `localhost:${k.kernel.port}`;
    const statuses: Record<string, number> = {};
    const hitPaths = new Set<string>();
    await fc.assert(
      fc.asyncProperty(httpRequest(ctx), async (generated) => {
        const sid = needsSession(generated) ? await openRawSession(k, token) : '';
        const r = substitute(generated, token, sid);
        const bytes = encodeRequest(r, host);
        const answer = await rawExchange({
          port: k.kernel.port,
          caPem: k.certPem,
          bytes,
          timeoutMs: CASE_TIMEOUT_MS,
          stopAtEventStream: r.method === 'GET',
          head: r.method === 'HEAD',
        });
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        for (const route of routes) if (r.target.includes(route.path)) hitPaths.add(route.path);
        assert.deepEqual(judgeHttpAnswer(r, bytes, answer, needles), [], describeRequest(r));
      }),
      fuzzParameters(RUNS),
    );
    t.diagnostic(`statuses: ${JSON.stringify(statuses)}`);
    for (const route of routes) assert.ok(hitPaths.has(route.path), `${route.path} was fuzzed`);

    // Still serving, and nothing went wrong out of sight.
    assert.equal(await (await k.fetch(`${k.url}/health`)).text(), 'ok');
    const client = await connectMcp(k, startupToken(k.stateDir, 'auditor1'));
    try {
      assert.ok((await client.client.listTools()).tools.length > 0);
    } finally {
      await client.close();
    }
    assert.deepEqual(unexpectedErrors(readFileSync(join(k.stateDir, 'logs', 'app.log'), 'utf8')), []);
  });
});
