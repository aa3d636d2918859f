/** One message between the server and a report worker process: a small JSON head and a binary body. */
export interface Frame {
  head: Record<string, unknown>;
  body: Buffer;
}

const PREFIX = 8;

/**
 * A frame as buffers to write: two 32-bit lengths (head, body), the head as JSON, the body as it is.
 * The body is not copied, so handing megabytes of HTML or PDF over costs the sender nothing.
 */
export function encodeFrame(head: Record<string, unknown>, body?: Uint8Array): Buffer[] {
  const json = Buffer.from(JSON.stringify(head), 'utf8');
  const bytes = body ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : Buffer.alloc(0);
  const prefix = Buffer.alloc(PREFIX);
  prefix.writeUInt32BE(json.length, 0);
  prefix.writeUInt32BE(bytes.length, 4);
  return [prefix, json, bytes];
}

/**
 * Reassembles frames from a byte stream (a pipe's chunks). Chunks are only gathered until a frame is
 * whole, then joined once, so a frame of N bytes costs O(N) whatever the chunking. A frame larger than
 * `maxBytes`, or a head that is not a JSON object, is a broken peer: `push` throws and the reader is done.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private held = 0;
  private need = PREFIX;
  private lengths: [number, number] | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Adds a chunk; returns the frames it completes, in order. */
  push(chunk: Buffer): Frame[] {
    this.chunks.push(chunk);
    this.held += chunk.length;
    const frames: Frame[] = [];
    while (this.held >= this.need) {
      const all = this.take(this.need);
      if (!this.lengths) {
        const head = all.readUInt32BE(0);
        const body = all.readUInt32BE(4);
        if (PREFIX + head + body > this.maxBytes)
          throw new Error(`a frame of ${PREFIX + head + body} bytes passes the ${this.maxBytes} byte bound`);
        this.lengths = [head, body];
        this.need = head + body;
        continue;
      }
      const [headBytes] = this.lengths;
      const head: unknown = JSON.parse(all.subarray(0, headBytes).toString('utf8'));
      if (typeof head !== 'object' || head === null || Array.isArray(head))
        throw new Error('a frame head that is not a JSON object');
      frames.push({ head: head as Record<string, unknown>, body: all.subarray(headBytes) });
      this.lengths = undefined;
      this.need = PREFIX;
    }
    return frames;
  }

  /** The first `n` held bytes as one buffer (a view when they lie in one chunk), the rest kept. */
  private take(n: number): Buffer {
    let out: Buffer;
    const first = this.chunks[0] as Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const joined = Buffer.concat(this.chunks, this.held);
      out = joined.subarray(0, n);
      this.chunks = joined.length > n ? [joined.subarray(n)] : [];
    }
    this.held -= n;
    return out;
  }
}
