import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { AuditLog } from '../audit/audit-log.ts';
import type { Config } from '../config/schema.ts';
import type { AppLogger } from '../logging/app-log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { TlsMaterial } from '../tls/certificate.ts';
import { HSTS_HEADER, HSTS_VALUE, TLS_POLICY } from './transport-security.ts';

export interface HttpsServerHandle {
  server: Server;
  /** Swaps in a renewed certificate without dropping connections. */
  setCertificate(tls: TlsMaterial): void;
  close(graceMs: number): Promise<void>;
}

/**
 * The HTTPS listener: TLS 1.2 and 1.3 with forward-secret AEAD suites only; every failed handshake is a
 * TRANSPORT audit event; every answer, whoever writes it, carries Strict-Transport-Security.
 */
export function createHttpsServer(
  tls: TlsMaterial,
  handler: Parameters<typeof createServer>[1],
  deps: { config: Config; audit: AuditLog; log: AppLogger; metrics: Metrics },
): HttpsServerHandle {
  const server = createServer(
    {
      key: tls.key,
      cert: tls.cert,
      ...(tls.ca ? { ca: tls.ca } : {}),
      ...TLS_POLICY,
      maxHeaderSize: deps.config.HTTP_MAX_HEADER_BYTES,
      requestTimeout: deps.config.HTTP_REQUEST_TIMEOUT_MS,
      // Node's 5 s default races the client's own idle timer: a client that sends on a connection the
      // server closed a moment earlier gets ECONNRESET for a POST it cannot safely repeat.
      keepAliveTimeout: deps.config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // Node enforces requestTimeout when it sweeps connections, every 30 s by default: sweep each second,
      // so a request that never completes (a body shorter than its Content-Length) is cut on time.
      connectionsCheckingInterval: Math.min(1000, deps.config.HTTP_REQUEST_TIMEOUT_MS),
      // A request without Host goes on to the Host/Origin guard, which refuses it with a coded answer
      // (Node's own refusal is a bare 400); /health still answers it, as it answers any Host.
      requireHostHeader: false,
    },
    (req, res) => {
      // Set before any handler runs, so the answer carries it whether Koa, the MCP transport (which
      // writes its own head) or the placeholder before the app is attached writes it.
      res.setHeader(HSTS_HEADER, HSTS_VALUE);
      handler?.(req, res);
    },
  );
  server.on('tlsClientError', (err: NodeJS.ErrnoException & { reason?: string }, socket: TLSSocket) => {
    // Plain disconnects before a handshake (port scanners, probes closing early) are not TLS alerts.
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    const alert = err.reason ?? err.code ?? err.message;
    deps.metrics.transportRejections.inc({ reason: 'tls_alert' });
    try {
      deps.audit.write({
        event: 'TRANSPORT',
        status: 'TLS_ALERT',
        ip: normaliseIp(socket.remoteAddress),
        alert,
        code: err.code ?? 'unknown',
      });
    } catch (auditErr) {
      deps.log.error({ err: auditErr }, 'could not audit a TLS handshake failure');
    }
  });
  // What the HTTP parser refuses before any middleware runs (a malformed request line or header, a
  // control byte in a header value, headers over HTTP_MAX_HEADER_BYTES, a request not complete within
  // HTTP_REQUEST_TIMEOUT_MS) is answered with a coded JSON body too; Node's own answer has none.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const refusal = parserRefusal(err.code, deps.config);
    deps.log.debug({ code: err.code, status: refusal.status }, 'HTTP request refused by the parser');
    refuseOnSocket(socket, refusal);
  });
  // An Expect other than 100-continue: without a listener Node answers a bare 417 itself.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const body = codedBody('BAD_REQUEST', 'the Expect header is not supported');
    res.writeHead(417, {
      [HSTS_HEADER]: HSTS_VALUE,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    res.end(body);
  });
  // CONNECT (a proxy tunnel) is nothing this server offers; without a listener Node drops the socket.
  server.on('connect', (_req: unknown, socket: Socket) => {
    refuseOnSocket(socket, {
      status: 405,
      reason: 'Method Not Allowed',
      error: 'METHOD_NOT_ALLOWED',
      message: 'CONNECT is not supported',
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    server,
    setCertificate(next: TlsMaterial) {
      server.setSecureContext({
        ...TLS_POLICY,
        key: next.key,
        cert: next.cert,
        ...(next.ca ? { ca: next.ca } : {}),
      });
    },
    close(graceMs: number) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

interface Refusal {
  status: number;
  reason: string;
  error: string;
  message: string;
}

/** Answers on a socket no request handler owns, then closes it (at most a second later). */
function refuseOnSocket(socket: Socket, r: Refusal): void {
  const body = codedBody(r.error, r.message);
  socket.end(
    `HTTP/1.1 ${r.status} ${r.reason}\r\n${HSTS_HEADER}: ${HSTS_VALUE}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), 1000).unref();
}

function codedBody(error: string, message: string): string {
  return JSON.stringify({ error, message, request_id: randomUUID() });
}

function parserRefusal(
  code: string | undefined,
  config: Pick<Config, 'HTTP_MAX_HEADER_BYTES' | 'HTTP_REQUEST_TIMEOUT_MS'>,
): Refusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        error: 'PAYLOAD_TOO_LARGE',
        message: `the request headers are larger than ${config.HTTP_MAX_HEADER_BYTES} bytes`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        reason: 'Payload Too Large',
        error: 'PAYLOAD_TOO_LARGE',
        message: 'the chunk extensions are too large',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        error: 'BAD_REQUEST',
        message: `the request did not arrive within ${config.HTTP_REQUEST_TIMEOUT_MS} ms`,
      };
    default:
      return { status: 400, reason: 'Bad Request', error: 'BAD_REQUEST', message: 'malformed HTTP request' };
  }
}

function normaliseIp(addr: string | undefined): string {
  if (!addr) return 'unknown';
  return addr.startsWith('::ffff:') ? addr.slice(7) : addr;
}
