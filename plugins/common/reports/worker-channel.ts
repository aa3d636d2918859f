// The worker process's side of worker-process.ts: frames come in on stdin and go out on fd 3.
import { readdirSync } from 'node:fs';
import { Socket } from 'node:net';
import { setPriority } from 'node:os';
import { encodeFrame, FrameReader, type Frame } from './frames.ts';

export interface WorkerChannel {
  send(head: Record<string, unknown>, body?: Uint8Array): Promise<void>;
}

/**
 * Serves frames from the server: `onFrame` gets each in order; `onEnd` runs when the server closes the
 * channel or goes away (its end of the pipe closes with it), then the process exits. A frame larger than
 * `maxBytes` or malformed ends the process (the server sees it exit).
 */
export function serveFrames(
  maxBytes: number,
  onFrame: (f: Frame, channel: WorkerChannel) => void,
  onEnd: () => Promise<void> = async () => undefined,
): WorkerChannel {
  lowestPriority();
  const out = new Socket({ fd: 3, readable: false, writable: true });
  const channel: WorkerChannel = {
    send: (head, body) =>
      new Promise<void>((resolve, reject) => {
        const parts = encodeFrame(head, body);
        parts.slice(0, -1).forEach((p) => out.write(p));
        out.write(parts.at(-1) as Buffer, (err) => (err ? reject(err) : resolve()));
      }),
  };
  const reader = new FrameReader(maxBytes);
  let ending = false;
  const end = (code: number): void => {
    if (ending) return;
    ending = true;
    void onEnd().finally(() => out.end(() => process.exit(code)));
  };
  process.stdin.on('data', (d: Buffer) => {
    try {
      for (const f of reader.push(d)) onFrame(f, channel);
    } catch {
      end(2);
    }
  });
  process.stdin.on('end', () => end(0));
  process.stdin.on('error', () => end(0));
  out.on('error', () => end(0));
  return channel;
}

/**
 * Every thread of this process at the lowest CPU priority, so that the server's thread wins every
 * contended core. On Linux the nice value belongs to each thread (V8's helper threads already run), and
 * threads started later (Chromium's processes, from the main thread) inherit it. Elsewhere, or where
 * refused, the main thread is tried alone, and failing that the work runs at the priority it has.
 */
function lowestPriority(): void {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    tids = ['0'];
  }
  for (const tid of tids) {
    try {
      setPriority(Number(tid), 19);
    } catch {
      // gone, or not permitted
    }
  }
}
