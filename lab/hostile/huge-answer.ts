// An answer of gigabytes streamed one reused chunk at a time, respecting backpressure: the lab holds
// 64 KiB whatever the size, and stops as soon as the client hangs up.
import type { ServerResponse } from 'node:http';
import type { HostileStats, HugeAnswer } from './switches.ts';

const CHUNK = 64 * 1024;
/** "Endless" stops here, so a client that never hangs up still ends (after a very long time). */
export const ENDLESS_BYTES = 64 * 1024 ** 3;

function chunkOf(unit: string): Buffer {
  const b = Buffer.from(unit.repeat(Math.ceil(CHUNK / unit.length)), 'utf8');
  return b.subarray(0, CHUNK);
}

const BODIES: Record<string, { head: string; chunk: Buffer }> = {
  json: {
    head: '{"@total":"99999999","User":[',
    chunk: chunkOf('{"ObjectId":"00000000-0000-0000-0000-000000000000","Alias":"hostile"},'),
  },
  xml: {
    head: '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><return>',
    chunk: chunkOf('<row><name>hostile</name></row>'),
  },
  binary: { head: '\x89PNG\r\n\x1a\n', chunk: Buffer.alloc(CHUNK) },
};

/** Streams the answer; resolves when it ended or the client went away. */
export async function streamHugeAnswer(
  res: ServerResponse,
  o: HugeAnswer,
  kind: 'json' | 'xml' | 'binary',
  stats: HostileStats,
): Promise<void> {
  const total = Math.max(0, o.bytes ?? ENDLESS_BYTES);
  const body = BODIES[kind] ?? BODIES.binary;
  if (!body) return;
  const contentType =
    kind === 'json' ? 'application/json' : kind === 'xml' ? 'text/xml; charset=utf-8' : 'image/png';
  res.writeHead(200, {
    'content-type': contentType,
    ...(o.declareLength ? { 'content-length': String(total) } : {}),
  });
  stats.hugeAnswers++;
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  let sent = 0;
  const write = (b: Buffer): boolean => {
    sent += b.length;
    stats.hugeBytesSent += b.length;
    return res.write(b);
  };
  const head = Buffer.from(body.head, 'latin1').subarray(0, total);
  let flowing = write(head);
  while (sent < total && !closed) {
    if (!flowing) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.once('drain', done);
        res.once('close', done);
      });
      if (closed) break;
    }
    const n = Math.min(CHUNK, total - sent);
    flowing = write(n === CHUNK ? body.chunk : body.chunk.subarray(0, n));
  }
  if (closed || res.destroyed) {
    if (sent < total) stats.hugeAnswersCut++;
    return;
  }
  res.end();
}
