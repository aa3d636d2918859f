import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Server as HttpsServer } from 'node:https';
import type { SecureContextOptions, SecureVersion } from 'node:tls';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface TlsSettings {
  certPem: string;
  keyPem: string;
  minVersion: SecureVersion;
}

/** A bound HTTP(S) listener that can be closed promptly, open keep-alive connections included. */
export interface Listener {
  port: number;
  close(): Promise<void>;
  /** HTTPS only: new connections get this certificate; idle keep-alive connections are closed. */
  setCertificate(certPem: string, keyPem: string): void;
}

function secureOptions(tls: TlsSettings): SecureContextOptions {
  return {
    cert: tls.certPem,
    key: tls.keyPem,
    minVersion: tls.minVersion,
    // Old protocol versions are only usable when the security level lets their cipher suites through.
    ...(tls.minVersion === 'TLSv1' || tls.minVersion === 'TLSv1.1' ? { ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
  };
}

export async function listen(
  host: string,
  port: number,
  handler: RequestHandler,
  tls?: TlsSettings,
): Promise<Listener> {
  const wrapped = (req: IncomingMessage, res: ServerResponse): void => {
    handler(req, res).catch((err: unknown) => {
      // A handler bug must not take the node down; answer like a servlet container would.
      console.error('lab: request handler failed', err);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end('<html><body><h1>HTTP Status 500 - Internal Server Error</h1></body></html>');
      } else res.destroy();
    });
  };
  const server: Server = tls ? createHttpsServer(secureOptions(tls), wrapped) : createHttpServer(wrapped);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('listener has no TCP address');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    setCertificate(certPem, keyPem) {
      if (!tls) throw new Error('a plain HTTP listener has no certificate');
      (server as HttpsServer).setSecureContext(secureOptions({ ...tls, certPem, keyPem }));
      server.closeIdleConnections();
    },
  };
}
