import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLargeError extends Error {}

/** Reads the request body as UTF-8, refusing more than `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw new BodyTooLargeError(`body over ${limit} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface BasicCredentials {
  user: string;
  password: string;
}

/** The HTTP Basic credentials of a request (RFC 7617), or undefined when absent or malformed. */
export function basicCredentials(req: IncomingMessage): BasicCredentials | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': String(payload.length),
    ...headers,
  });
  res.end(payload);
}

/** The page Tomcat answers a request without valid credentials with. */
export function sendUnauthorized(res: ServerResponse, realm: string): void {
  send(
    res,
    401,
    'text/html;charset=utf-8',
    '<html><head><title>Error report</title></head><body><h1>HTTP Status 401 - Unauthorized</h1></body></html>',
    { 'www-authenticate': `Basic realm="${realm}"` },
  );
}

export function requestPath(req: IncomingMessage): { path: string; query: URLSearchParams } {
  const url = new URL(req.url ?? '/', 'https://lab.invalid');
  return { path: url.pathname, query: url.searchParams };
}
