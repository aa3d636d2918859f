import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { AuditLog } from '../audit/audit-log.ts';
import type { Config } from '../config/schema.ts';
import type { AppLogger } from '../logging/app-log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { TlsMaterial } from '../tls/certificate.ts';

export interface HttpsServerHandle {
  server: Server;
  /** Swaps in a renewed certificate without dropping connections. */
  setCertificate(tls: TlsMaterial): void;
  close(graceMs: number): Promise<void>;
}

/** The HTTPS listener: TLS 1.2 and 1.3 only; every failed handshake is a TRANSPORT audit event. */
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
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.3',
      honorCipherOrder: true,
      maxHeaderSize: deps.config.HTTP_MAX_HEADER_BYTES,
      requestTimeout: deps.config.HTTP_REQUEST_TIMEOUT_MS,
    },
    handler,
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
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    server,
    setCertificate(next: TlsMaterial) {
      server.setSecureContext({ key: next.key, cert: next.cert, ...(next.ca ? { ca: next.ca } : {}) });
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

function normaliseIp(addr: string | undefined): string {
  if (!addr) return 'unknown';
  return addr.startsWith('::ffff:') ? addr.slice(7) : addr;
}
