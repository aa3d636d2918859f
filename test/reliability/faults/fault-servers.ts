// Misbehaving managed nodes for the fault tests, each a raw server on 127.0.0.1: a port nobody listens
// on, an HTTP(S) node that answers by a plan (properly, busy with Retry-After, silent, trickling, or
// resetting mid-answer), and an SSH node that rejects the login, never says hello, or resets. Each
// counts what it saw (connections, requests, open sockets) so a test can tell what reached the node and
// that nothing was left hanging.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, isIP, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import forge from 'node-forge';
import ssh2 from 'ssh2';
import type { Connection } from 'ssh2';

/** A loopback port that was free a moment ago and is closed now: connecting gets ECONNREFUSED. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface TlsIdentity {
  certPem: string;
  keyPem: string;
}

let identity: TlsIdentity | undefined;

/** A self-signed certificate for 127.0.0.1 that is its own CA: stored as the credential's ca_cert_pem. */
export function faultTls(): TlsIdentity {
  if (identity) return identity;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const subject = [{ name: 'commonName', value: 'fault node' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: ['127.0.0.1', 'localhost'].map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
    },
  ]);
  cert.sign(key, forge.md.sha256.create());
  identity = { certPem: forge.pki.certificateToPem(cert), keyPem };
  return identity;
}

/** One HTTP request as the fault node read it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What the node does with a request. */
export type Behaviour =
  /** A complete answer; the connection stays open for the next request (keep-alive). */
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: string }
  /** HTTP 503 or 429 with an optional Retry-After, then the connection is closed. */
  | { kind: 'busy'; status: 503 | 429; retryAfter?: string }
  /** Reads the request and never answers. */
  | { kind: 'stall' }
  /** Headers announcing `length` bytes, `bytes` of them, then silence. */
  | { kind: 'stall-body'; length: number; bytes: number }
  /**
   * Headers announcing `length` bytes (default 100,000,000), then one byte every `everyMs`, for ever:
   * never silent long enough to look stalled.
   */
  | { kind: 'trickle'; everyMs: number; length?: number }
  /** `bytes` of the status line and headers, then a TCP reset. */
  | { kind: 'reset-headers'; bytes: number }
  /** Complete headers announcing `length` bytes, `bytes` of the body, then a TCP reset. */
  | { kind: 'reset-body'; length: number; bytes: number };

export interface HttpFaultOptions {
  /** Serve HTTPS with `faultTls()` (default true); false serves plain HTTP (a phone). */
  tls?: boolean;
  /** Decides per request; may change between requests (e.g. answer the version probe, then fail). */
  plan: (req: SeenRequest, index: number) => Behaviour;
  /** Drop every connection as soon as it is accepted, before TLS (a node refusing its clients). */
  dropOnAccept?: boolean;
}

export interface HttpFaultNode {
  port: number;
  address: string;
  /** Connections accepted in all. */
  connections(): number;
  /** Sockets still open on the node's side. */
  open(): number;
  requests: SeenRequest[];
  setPlan(plan: HttpFaultOptions['plan']): void;
  close(): Promise<void>;
}

export async function httpFaultNode(o: HttpFaultOptions): Promise<HttpFaultNode> {
  let plan = o.plan;
  let connections = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: SeenRequest[] = [];
  const tls = o.tls !== false ? faultTls() : undefined;
  const server: Server = createServer((raw) => {
    connections++;
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => undefined);
    if (o.dropOnAccept) {
      raw.destroy();
      return;
    }
    const stream = tls ? new TLSSocket(raw, { isServer: true, key: tls.keyPem, cert: tls.certPem }) : raw;
    stream.on('error', () => undefined);
    serve(
      stream,
      raw,
      (req) => {
        requests.push(req);
        return plan(req, requests.length - 1);
      },
      timers,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    address: `127.0.0.1:${port}`,
    connections: () => connections,
    open: () => sockets.size,
    requests,
    setPlan: (p) => {
      plan = p;
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Reads requests off one connection (keep-alive) and acts out the plan for each. */
function serve(
  stream: Socket,
  raw: Socket,
  decide: (req: SeenRequest) => Behaviour,
  timers: Set<NodeJS.Timeout>,
): void {
  let buffer = Buffer.alloc(0);
  let busy = false;
  const next = (): void => {
    if (busy) return;
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (buffer.length < end + 4 + length) return;
    const [method = '', path = ''] = (head[0] ?? '').split(' ');
    const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    buffer = buffer.subarray(end + 4 + length);
    busy = true;
    act(stream, raw, decide({ method, path, headers, body }), timers, () => {
      busy = false;
      next();
    });
  };
  stream.on('data', (d: Buffer) => {
    buffer = Buffer.concat([buffer, d]);
    next();
  });
}

function act(stream: Socket, raw: Socket, b: Behaviour, timers: Set<NodeJS.Timeout>, done: () => void): void {
  const head = (status: number, headers: Record<string, string>): string =>
    `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Status'}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
  switch (b.kind) {
    case 'answer': {
      const body = b.body ?? '';
      stream.write(
        head(b.status, {
          'content-type': 'text/xml; charset=utf-8',
          ...b.headers,
          'content-length': String(Buffer.byteLength(body)),
          connection: 'keep-alive',
        }) + body,
      );
      done();
      return;
    }
    case 'busy': {
      const body = `<html><body>HTTP ${b.status}: busy</body></html>`;
      stream.end(
        head(b.status, {
          'content-type': 'text/html',
          'content-length': String(body.length),
          connection: 'close',
          ...(b.retryAfter !== undefined ? { 'retry-after': b.retryAfter } : {}),
        }) + body,
      );
      return;
    }
    case 'stall':
      return;
    case 'stall-body':
      stream.write(head(200, { 'content-length': String(b.length) }) + 'x'.repeat(b.bytes));
      return;
    case 'trickle': {
      stream.write(head(200, { 'content-length': String(b.length ?? 100_000_000) }));
      const t = setInterval(() => {
        if (stream.destroyed) {
          clearInterval(t);
          timers.delete(t);
        } else stream.write('x');
      }, b.everyMs);
      timers.add(t);
      return;
    }
    case 'reset-headers': {
      const text = head(200, { 'content-length': '1000' });
      stream.write(text.slice(0, Math.min(b.bytes, text.length - 4)), () => reset(raw));
      return;
    }
    case 'reset-body':
      stream.write(head(200, { 'content-length': String(b.length) }) + 'x'.repeat(b.bytes), () => reset(raw));
      return;
  }
}

/** A TCP reset (RST), not an orderly close: what a crashing node or a middlebox sends. */
function reset(raw: Socket): void {
  // Let the bytes just written leave before the reset cuts the connection.
  setTimeout(() => raw.resetAndDestroy(), 20);
}

export type SshFault =
  /** Host key shown, then every login refused (a wrong or locked account). */
  | 'reject-auth'
  /** TCP accepted, then not a byte: the SSH handshake never starts. */
  | 'stall-handshake'
  /** The SSH version line, then a TCP reset. */
  | 'reset-handshake';

export interface SshFaultNode {
  port: number;
  address: string;
  /** The host key's public part, for trusting it (`reject-auth` only). */
  hostKey: string;
  connections(): number;
  open(): number;
  /** Login attempts (`reject-auth`). */
  logins(): number;
  close(): Promise<void>;
}

export async function sshFaultNode(fault: SshFault): Promise<SshFaultNode> {
  let connections = 0;
  let logins = 0;
  const sockets = new Set<Socket>();
  const hostKey = ssh2.utils.generateKeyPairSync('ed25519');
  const ssh =
    fault === 'reject-auth'
      ? new ssh2.Server({ hostKeys: [hostKey.private], ident: 'OpenSSH_8.0' }, (client: Connection) => {
          client.on('error', () => undefined);
          client.on('authentication', (ctx) => {
            if (ctx.method !== 'none') logins++;
            ctx.reject(['keyboard-interactive']);
          });
        })
      : undefined;
  const server = createServer((raw) => {
    connections++;
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => undefined);
    // Silent, but reading (and dropping) what comes, so the client's close is seen as it would be.
    if (fault === 'stall-handshake') {
      raw.resume();
      return;
    }
    if (fault === 'reset-handshake') {
      raw.write('SSH-2.0-OpenSSH_8.0\r\n', () => setTimeout(() => raw.resetAndDestroy(), 20));
      return;
    }
    (ssh as ssh2.Server).injectSocket(raw);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    address: `127.0.0.1:${port}`,
    hostKey: hostKey.public,
    connections: () => connections,
    open: () => sockets.size,
    logins: () => logins,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
