// One HTTP/1.1 exchange written byte for byte over a verified TLS connection: any method token, any
// request target, header values with control bytes or invalid UTF-8, a Content-Length that lies. fetch
// and node:https refuse to send most of that, which is exactly what a hostile caller sends.
import { connect } from 'node:tls';

export interface RawAnswer {
  /** 0 when the server closed the connection without an answer. */
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Everything the server sent, headers included, for the secret scan. */
  raw: Buffer;
  ms: number;
}

export interface RawRequest {
  method: string;
  /** The request target exactly as written on the request line. */
  target: string;
  /** Header lines, each written as `name: value` (value bytes as given). */
  headers: [string, string | Buffer][];
  body?: Buffer;
  /** Write no Content-Length (the caller supplies its own framing, or none). */
  noContentLength?: boolean;
}

export class Hang extends Error {}

/** Serialises a request; Host and Connection: close come first unless the caller gave its own. */
export function encodeRequest(r: RawRequest, defaultHost: string): Buffer {
  const names = new Set(r.headers.map(([n]) => n.toLowerCase()));
  const lines: Buffer[] = [Buffer.from(`${r.method} ${r.target} HTTP/1.1\r\n`, 'latin1')];
  const header = (n: string, v: string | Buffer): void => {
    lines.push(Buffer.from(`${n}: `, 'latin1'), Buffer.isBuffer(v) ? v : Buffer.from(v, 'utf8'));
    lines.push(Buffer.from('\r\n'));
  };
  if (!names.has('host')) header('Host', defaultHost);
  if (!names.has('connection')) header('Connection', 'close');
  for (const [n, v] of r.headers) header(n, v);
  if (!r.noContentLength && !names.has('content-length') && !names.has('transfer-encoding'))
    header('Content-Length', String(r.body?.length ?? 0));
  lines.push(Buffer.from('\r\n'));
  if (r.body) lines.push(r.body);
  return Buffer.concat(lines);
}

/**
 * Sends `bytes` and reads until the server closes, at most `timeoutMs` (then throws Hang). The answer's
 * body is de-chunked. A connection reset after a complete answer is still that answer.
 */
export function rawExchange(opts: {
  port: number;
  caPem: string;
  bytes: Buffer;
  timeoutMs: number;
  /** A GET event stream stays open by design: stop at its head, the whole answer there is to judge. */
  stopAtEventStream?: boolean;
  /** The request was HEAD: the answer has no body whatever its Content-Length says. */
  head?: boolean;
}): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port: opts.port, ca: opts.caPem, servername: 'localhost' });
    let settled = false;
    const finish = (err?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      if (err && raw.length === 0 && !isReset(err)) return reject(err);
      if (err instanceof Hang) return reject(err);
      resolve({ ...parseAnswer(raw), raw, ms: performance.now() - started });
    };
    const timer = setTimeout(
      () => finish(new Hang(`no complete answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    socket.on('secureConnect', () => {
      // The server may answer and close before it has read everything (413): that is not our error.
      socket.write(opts.bytes, () => undefined);
    });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (answerComplete(Buffer.concat(chunks), opts.head === true, opts.stopAtEventStream === true))
        finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (e) => finish(e));
  });
}

/**
 * Whether `raw` holds a whole answer, so a server that keeps the connection open (keep-alive after an
 * `Upgrade` or `Connection: keep-alive` request) is not mistaken for one that hangs.
 */
function answerComplete(raw: Buffer, head: boolean, stopAtEventStream: boolean): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const { status, headers } = parseAnswer(raw);
  if (stopAtEventStream && /text\/event-stream/i.test(headers['content-type'] ?? '')) return true;
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) return true;
  const body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) return chunkedComplete(body);
  const length = headers['content-length'];
  return length !== undefined && body.length >= Number(length);
}

function isReset(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

export function parseAnswer(raw: Buffer): { status: number; headers: Record<string, string>; body: Buffer } {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: Buffer.alloc(0) };
  const head = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status, headers, body };
}

function chunkedComplete(buf: Buffer): boolean {
  let i = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', i);
    if (eol < 0) return false;
    const size = parseInt(buf.subarray(i, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) return true; // not chunked after all: judge what came
    if (size === 0) return buf.indexOf('\r\n\r\n', eol) >= 0 || buf.length >= eol + 4;
    i = eol + 2 + size + 2;
    if (i > buf.length) return false;
  }
}

function dechunk(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < buf.length) {
    const eol = buf.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(i, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
