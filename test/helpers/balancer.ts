// A round-robin HTTPS balancer for the scale-out tests: it terminates TLS with the instances' own
// certificate (they share the state directory, so they share it) and sends EACH REQUEST to the next
// instance, not each connection, so that one client's keep-alive connection still lands on every
// instance in turn (no stickiness, the worst case for shared state). Response bodies are streamed
// (Server-Sent Events must arrive as they are written); request bodies are read whole first (they are
// small, at most HTTP_MAX_BODY_BYTES) so that a request whose instance turns out to be dead can be sent
// to the next one. It adds X-Forwarded-For (the instances trust 127.0.0.1 as a proxy) and counts the
// requests each instance received, so tests can assert the rotation really happened.
import { readFileSync } from 'node:fs';
import { Agent, createServer, request as httpsRequest, type Server, type ServerOptions } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Headers that describe one hop, not the message: never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

export interface BalancedRequest {
  backend: number;
  method: string;
  path: string;
  /** The Mcp-Session-Id the client sent, if any. */
  session?: string;
  status?: number;
}

export interface Balancer {
  /** https://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Requests forwarded to each backend (by index). */
  counts: number[];
  /** Every forwarded request, in order. */
  log: BalancedRequest[];
  /** Backends (by index) taken out of the rotation: removed by the test or found dead. */
  down: Set<number>;
  /** Takes a backend out of the rotation (a dead one is also taken out on its first connection error). */
  remove(index: number): void;
  /** Puts it back. */
  restore(index: number): void;
  /** The routing rule in force (undefined: round-robin only); tests may change it at any time. */
  route: ((req: IncomingMessage) => number | undefined) | undefined;
  /** Zeroes the counts and the log. */
  reset(): void;
  close(): Promise<void>;
}

export interface BalancerOptions {
  /** The instances' URLs (https://127.0.0.1:<port>), in order. */
  backends: string[];
  /** The shared state directory: its TLS certificate and key serve the clients and verify the instances. */
  stateDir: string;
  /** Port to listen on (0: any free one). The instances' PUBLIC_BASE_URL names it, so it is often fixed. */
  port?: number;
  /**
   * A routing rule, as a real balancer's `use-server` (HAProxy) or path matcher (Caddy): the backend
   * (by index) for a request, or undefined for the next one in the rotation. A routed request whose
   * backend is down or refuses the connection falls back to the rotation, as HAProxy's redispatch does.
   * Settable after start through `Balancer.route`.
   */
  route?: (req: IncomingMessage) => number | undefined;
}

export async function startBalancer(o: BalancerOptions): Promise<Balancer> {
  const cert = readFileSync(join(o.stateDir, 'secrets', 'tls_cert.pem'), 'utf8');
  const key = readFileSync(join(o.stateDir, 'secrets', 'tls_key.pem'), 'utf8');
  const backends = o.backends.map((u) => new URL(u));
  // Keep-alive to each instance, as a real balancer does (a new TLS handshake per request would be
  // most of what the benchmark measures).
  // An idle pooled connection is dropped well before the instance's own keep-alive timeout
  // (HTTP_KEEP_ALIVE_TIMEOUT_MS, 65 s): else the instance may close it just as a request is sent on it,
  // and that request fails though nothing was wrong.
  const agents = backends.map(
    () => new Agent({ keepAlive: true, ca: cert, maxSockets: 64, timeout: 20_000 }),
  );
  const counts = backends.map(() => 0);
  const log: BalancedRequest[] = [];
  const down = new Set<number>();
  let next = 0;
  // Filled in once the server listens; `pick` reads its `route`, which a test may change.
  const self = { route: o.route } as Balancer;

  function pick(req: IncomingMessage, tried: Set<number>): number | undefined {
    const routed = self.route?.(req);
    if (
      routed !== undefined &&
      routed >= 0 &&
      routed < backends.length &&
      !down.has(routed) &&
      !tried.has(routed)
    )
      return routed;
    for (let n = 0; n < backends.length; n++) {
      const i = next % backends.length;
      next++;
      if (!down.has(i) && !tried.has(i)) return i;
    }
    return undefined;
  }

  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<number>): void {
    const i = pick(req, tried);
    if (i === undefined) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('no instance available');
      return;
    }
    tried.add(i);
    const target = backends[i] as URL;
    const headers: IncomingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k)) headers[k] = v;
    const peer = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    headers['x-forwarded-for'] = req.headers['x-forwarded-for']
      ? `${String(req.headers['x-forwarded-for'])}, ${peer}`
      : peer;
    headers['x-forwarded-proto'] = 'https';
    if (body.length > 0) headers['content-length'] = String(body.length);
    const entry: BalancedRequest = {
      backend: i,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      ...(typeof req.headers['mcp-session-id'] === 'string'
        ? { session: req.headers['mcp-session-id'] }
        : {}),
    };
    let connected = false;
    const up = httpsRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent: agents[i],
      },
      (upRes) => {
        entry.status = upRes.statusCode;
        const out: Record<string, string | string[]> = { 'x-test-backend': String(i) };
        for (const [k, v] of Object.entries(upRes.headers))
          if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
        res.writeHead(upRes.statusCode ?? 502, out);
        res.flushHeaders();
        upRes.pipe(res);
        upRes.on('aborted', () => res.destroy());
        upRes.on('error', () => res.destroy());
      },
    );
    up.on('socket', (s) => {
      // A reused keep-alive socket is connected already; a new one says so when it is.
      if (!s.connecting) connected = true;
      else s.once('connect', () => (connected = true));
    });
    up.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(String(err.code))) {
        // Nothing reached the dead instance: take it out and give the request to the next one.
        down.add(i);
        counts[i] = (counts[i] as number) - 1;
        log.splice(log.indexOf(entry), 1);
        if (!res.headersSent) return forward(req, res, body, tried);
      }
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`instance failed (${String(err.code)})`);
      else res.destroy();
    });
    counts[i] = (counts[i] as number) + 1;
    log.push(entry);
    // The client went away: so does its request to the instance (an SSE stream must not be left open).
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    up.end(body);
  }

  const tlsOpts: ServerOptions = { cert, key, keepAlive: true };
  const server: Server = createServer(tlsOpts, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), new Set()));
    req.on('error', () => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const rest: Omit<Balancer, 'route'> = {
    url: `https://127.0.0.1:${port}`,
    port,
    counts,
    log,
    down,
    remove: (i) => void down.add(i),
    restore: (i) => void down.delete(i),
    reset() {
      counts.fill(0);
      log.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const a of agents) a.destroy();
    },
  };
  return Object.assign(self, rest);
}
