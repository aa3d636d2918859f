// Hostile HTTP requests for every route the kernel serves. Routes are read from the kernel's own router
// (a capturing installer), so a new endpoint is fuzzed without editing this file. A request mixes a
// route-aware part (the route's methods, OAuth parameters, JSON-RPC messages) with hostile bytes in the
// method, target, query, headers and body. `<<TOKEN>>` and `<<SESSION>>` stand for a valid bearer token
// and a live MCP session id; the property substitutes them just before sending.
import type Router from '@koa/router';
import fc from 'fast-check';
import type { RouteInstaller } from '../../../../kernel/http/app.ts';
import type { KernelState } from '../../../../kernel/http/state.ts';
import { EVIL_HOST, hostileString, PROTO_KEYS } from './hostile.ts';
import type { RawRequest } from './raw-https.ts';

export interface Route {
  path: string;
  methods: string[];
}

export const TOKEN = '<<TOKEN>>';
export const SESSION = '<<SESSION>>';

/** An installer that keeps the router, to list every route once the kernel has installed them all. */
export function routeCapture(): { installer: RouteInstaller; routes(): Route[] } {
  let router: Router<KernelState> | undefined;
  return {
    installer: (r) => {
      router = r;
    },
    routes: () => {
      if (!router) throw new Error('the capturing installer never ran');
      const byPath = new Map<string, Set<string>>();
      for (const layer of router.stack) {
        const path = String(layer.path);
        const set = byPath.get(path) ?? new Set<string>();
        for (const m of layer.methods) set.add(m);
        byPath.set(path, set);
      }
      return [...byPath]
        .map(([path, methods]) => ({ path, methods: [...methods].sort() }))
        .sort((a, b) => a.path.localeCompare(b.path));
    },
  };
}

export interface HttpFuzzContext {
  routes: Route[];
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

const PARAMS = [
  'client_id',
  'client_secret',
  'response_type',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'state',
  'resource',
  'grant_type',
  'code',
  'code_verifier',
  'refresh_token',
  'token',
  'token_type_hint',
  'csrf',
  'decision',
];

function percentEncode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    // A lone surrogate has no UTF-8 form: send the raw broken escapes instead.
    return '%ED%A0%80';
  }
}

function paramValue(ctx: HttpFuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ctx.clientId,
        ctx.redirectUri,
        'code',
        'S256',
        'plain',
        'mcp',
        'client_credentials',
        'authorization_code',
        'refresh_token',
        'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        `https://localhost:${ctx.port}/mcp`,
        'approve',
        'deny',
      ),
    },
    { weight: 2, arbitrary: hostileString().filter((s) => s.length < 4000) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
}

function paramPairs(ctx: HttpFuzzContext): fc.Arbitrary<[string, string][]> {
  const key = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...PARAMS) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
  return fc.array(fc.tuple(key, paramValue(ctx)), { maxLength: 8 });
}

/** A query string or form body: mostly well encoded, sometimes with broken escapes or raw bytes. */
function encodedParams(ctx: HttpFuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: paramPairs(ctx).map((pairs) =>
        pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%zz=1', 'a=%ff%fe', '=&=&', 'a==b', '&&&', 'a=1&a=2', '%00=%00'),
    },
  );
}

function target(ctx: HttpFuzzContext): fc.Arbitrary<string> {
  const paths = ctx.routes.map((r) => r.path);
  const path = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...paths) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...paths),
          fc.constantFrom('/', '//', '/..', '/%2e%2e', ';x', '%00', '%2F', '/.', '?'),
        )
        .map(([p, s]) => p + s),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '/',
        '/x',
        '//mcp',
        '/MCP',
        '/%2e%2e/status',
        '/./health',
        '/.well-known/unknown',
        '/mcp/../status',
        '/.env',
        '/../../etc/passwd',
      ),
    },
    { weight: 1, arbitrary: fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)) },
  );
  const withQuery = fc
    .tuple(path, fc.option(encodedParams(ctx), { freq: 2 }))
    .map(([p, q]) => (q === null || p.includes('?') ? p : `${p}?${q}`));
  return fc.oneof(
    { weight: 10, arbitrary: withQuery },
    { weight: 1, arbitrary: withQuery.map((t) => `https://localhost:${ctx.port}${t}`) },
    { weight: 1, arbitrary: fc.constantFrom('*', `http://${EVIL_HOST}/status`, `localhost:${ctx.port}`) },
  );
}

function method(ctx: HttpFuzzContext): fc.Arbitrary<string> {
  const routeMethods = [...new Set(ctx.routes.flatMap((r) => r.methods))];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...routeMethods) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('CONNECT', 'get', 'FOO', 'M-SEARCH', 'PROPFIND', 'G\u0000T', ''),
    },
  );
}

/** `buf`, printed by fast-check as its length and first bytes rather than every byte. */
export function shown(buf: Buffer): Buffer {
  const preview = JSON.stringify(buf.subarray(0, 48).toString('latin1'));
  Object.defineProperty(buf, fc.toStringMethod, {
    value: () => `bytes(${buf.length}: ${preview}${buf.length > 48 ? '...' : ''})`,
    enumerable: false,
  });
  return buf;
}

/** Header values that are not valid UTF-8 or carry control bytes, written as raw bytes. */
const BAD_BYTES = [
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from('a\u0000b', 'latin1'),
  Buffer.from('a\u0001b', 'latin1'),
  Buffer.from('Bearer \u00ff\u00fe', 'latin1'),
].map(shown);

/**
 * A header value: a common one, or hostile text. `dirty` values may hold control bytes, line breaks and
 * invalid UTF-8 (which the HTTP parser refuses); clean ones are printable ASCII, so the request reaches
 * the routes and the hostility is in what the value says.
 */
function headerValue(common: string[], dirty: boolean): fc.Arbitrary<string | Buffer> {
  const hostile = hostileString().filter((s) => s.length < 2000);
  return dirty
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...common) },
        { weight: 2, arbitrary: hostile },
        { weight: 1, arbitrary: fc.constantFrom(...BAD_BYTES) },
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...common) },
        { weight: 2, arbitrary: hostile.map((v) => v.replace(/[^\x20-\x7e]/g, '').trim()) },
      );
}

function headers(ctx: HttpFuzzContext): fc.Arbitrary<[string, string | Buffer][]> {
  return fc.oneof(
    { weight: 4, arbitrary: headerSet(ctx, false) },
    { weight: 1, arbitrary: headerSet(ctx, true) },
  );
}

function headerSet(ctx: HttpFuzzContext, dirty: boolean): fc.Arbitrary<[string, string | Buffer][]> {
  const own = `localhost:${ctx.port}`;
  const basic = `Basic ${Buffer.from(`${ctx.clientId}:${ctx.clientSecret}`).toString('base64')}`;
  type Header = [string, string | Buffer] | null;
  /** The header, present in `present` of the requests. */
  const opt = (name: string, values: string[], present: number): fc.Arbitrary<Header> =>
    fc.oneof(
      {
        weight: Math.round(present * 100),
        arbitrary: headerValue(values, dirty).map((v): Header => [name, v]),
      },
      { weight: Math.round((1 - present) * 100), arbitrary: fc.constant<Header>(null) },
    );
  return fc
    .tuple(
      fc.oneof(
        { weight: 12, arbitrary: fc.constant<Header>(['Host', own]) },
        { weight: 1, arbitrary: fc.constant<Header>(null) },
        {
          weight: 2,
          arbitrary: headerValue(
            [EVIL_HOST, `127.0.0.1:${ctx.port}`, `[::1]:${ctx.port}`, 'localhost:1', own.toUpperCase()],
            dirty,
          ).map((v): Header => ['Host', v]),
        },
      ),
      opt(
        'Authorization',
        [
          `Bearer ${TOKEN}`,
          `Bearer ${TOKEN}`,
          basic,
          'Bearer',
          'Bearer a.b.c',
          'Basic Og==',
          'Basic !!!',
          `Bearer ${TOKEN}x`,
          'Digest x',
        ],
        0.75,
      ),
      opt(
        'Content-Type',
        [
          'application/json',
          'application/json',
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
        ],
        0.7,
      ),
      opt(
        'Accept',
        [
          'application/json, text/event-stream',
          'application/json, text/event-stream',
          '*/*',
          'text/html',
          'application/json',
        ],
        0.6,
      ),
      opt('Origin', [`https://${own}`, `https://${EVIL_HOST}`, 'null', `http://${own}`], 0.15),
      opt('Mcp-Session-Id', [SESSION, SESSION, 'x', '00000000-0000-0000-0000-000000000000'], 0.4),
      opt('Mcp-Protocol-Version', ['2025-06-18', '2025-03-26', '1999-01-01', ''], 0.3),
      opt('Cookie', ['__Host-ucmcp-login=abc', 'a=b; c', '__Host-ucmcp-login=%ff%'], 0.15),
      opt('X-Forwarded-For', ['10.0.0.1', '1.2.3.4, 5.6.7.8', 'unknown'], 0.1),
      fc.oneof(
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/), headerValue(['x'], dirty))
            .map((h): Header => h),
        },
        { weight: 3, arbitrary: fc.constant<Header>(null) },
      ),
    )
    .map((hs) => hs.filter((h): h is [string, string | Buffer] => h !== null));
}

function jsonRpc(): fc.Arbitrary<string> {
  const id = fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 10 }),
    fc.constantFrom<unknown>(null, 1.5, -1, 2 ** 60, {}, [], true),
  );
  const methodName = fc.constantFrom(
    'initialize',
    'ping',
    'tools/list',
    'tools/call',
    'prompts/list',
    'prompts/get',
    'resources/list',
    'resources/read',
    'resources/templates/list',
    'completion/complete',
    'logging/setLevel',
    'notifications/initialized',
    'notifications/cancelled',
    'x/y',
    '',
    '__proto__',
  );
  const params = fc.oneof(
    fc.constant(undefined),
    fc.constant({
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'fuzz', version: '1' },
    }),
    fc.record(
      {
        name: fc.oneof(fc.constantFrom('infra_health', 'cucm_axl_call', 'nope'), hostileString()),
        arguments: fc.oneof(fc.constant({}), fc.object({ maxDepth: 2 })),
      },
      { requiredKeys: [] },
    ),
    fc.record({ uri: fc.oneof(fc.constantFrom('file:///etc/passwd', 'ucmcp://docs/x'), hostileString()) }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const message = fc
    .record(
      {
        jsonrpc: fc.oneof(
          { weight: 5, arbitrary: fc.constant('2.0') },
          { weight: 1, arbitrary: fc.constantFrom('1.0', 2, null) },
        ),
        id,
        method: methodName,
        params,
      },
      { requiredKeys: [] },
    )
    .map((m) => JSON.stringify(m));
  return fc.oneof(
    { weight: 5, arbitrary: message },
    { weight: 1, arbitrary: fc.array(message, { maxLength: 4 }).map((ms) => `[${ms.join(',')}]`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'null',
        '[]',
        '{',
        '{"jsonrpc":"2.0","id":1,"method":"ping"',
        `{"jsonrpc":"2.0","id":${'9'.repeat(400)},"method":"ping"}`,
      ),
    },
  );
}

function body(ctx: HttpFuzzContext): fc.Arbitrary<Buffer | undefined> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: encodedParams(ctx).map((s) => shown(Buffer.from(s, 'utf8'))) },
    { weight: 3, arbitrary: jsonRpc().map((s) => shown(Buffer.from(s, 'utf8'))) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((a) => shown(Buffer.from(a))) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...BAD_BYTES)
        .map((b) =>
          shown(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'), b, Buffer.from('"}')])),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 10_000, max: 200_000 }).map((n) => shown(Buffer.alloc(n, 'a'))),
    },
  );
}

/** One hostile request for some route (possibly with placeholders for the token and session). */
export function httpRequest(ctx: HttpFuzzContext): fc.Arbitrary<RawRequest> {
  return fc.tuple(method(ctx), target(ctx), headers(ctx), body(ctx), fc.nat(9)).map(([m, t, h, b, lie]) => ({
    method: m,
    target: t,
    headers: h,
    ...(b !== undefined ? { body: b } : {}),
    // Now and then a Content-Length shorter than the body: the rest is a second, broken request on the
    // same connection. (A longer one waits for the request timeout: a named case.)
    ...(lie === 0 && b !== undefined && b.length > 0
      ? { headers: [...h, ['Content-Length', String(b.length - 1)] as [string, string]] }
      : {}),
  }));
}

export function needsSession(r: RawRequest): boolean {
  return r.headers.some(([, v]) => typeof v === 'string' && v.includes(SESSION));
}

/** The request with its placeholders filled in. */
export function substitute(r: RawRequest, token: string, session: string): RawRequest {
  const fill = (v: string | Buffer): string | Buffer =>
    Buffer.isBuffer(v) ? v : v.split(TOKEN).join(token).split(SESSION).join(session);
  return { ...r, headers: r.headers.map(([n, v]) => [n, fill(v)]) };
}
