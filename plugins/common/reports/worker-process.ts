import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { encodeFrame, FrameReader, type Frame } from './frames.ts';

/** tsx runs the worker's entry, a .ts file of the same signed bundle (plugins cannot reach the kernel's loader). */
const TSX = import.meta.resolve('tsx');
/** coreutils' nice, by absolute path only: a PATH lookup could be steered to another program. */
const NICE = ['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p));
/**
 * The priority a worker loads at, before it lowers itself to the lowest (worker-channel.ts): low enough
 * that the serving thread wins a contended core from it (a tenth of its weight), not so low that a busy
 * machine starves its start for minutes.
 */
const LOADING_NICE = '10';
/** How much of a worker's stderr is kept for the log (its last bytes: where a fatal error is). */
const STDERR_TAIL = 8192;
/**
 * What a worker gets of the server's environment: what Node, Chromium and fonts need to run, never
 * the server's own settings or secrets.
 */
const ENV_KEPT = /^(PATH|HOME|TMPDIR|TMP|TEMP|LANG|LANGUAGE|TZ|LC_[A-Z_]+|XDG_[A-Z_]+|FONTCONFIG_[A-Z_]+)$/;

export interface WorkerProcessOptions {
  /** The worker's V8 heap (old generation), in MB; Node's default when absent. */
  heapMb?: number;
  /** Largest frame accepted from the worker, in bytes. */
  maxFrameBytes: number;
  /** The worker's command-line arguments (settings only: never a secret, `ps` shows them). */
  args?: string[];
}

export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last bytes the worker wrote to stderr. */
  stderr: string;
}

/**
 * A report worker in a process of its own: Markdown rendering and Chromium printing run there, not in a
 * thread of the server, so their memory (hundreds of MB, mapped and unmapped as they go), their garbage
 * collection and their CPU never touch the process that serves every client. A thread shares all of
 * that: its page faults and heap growth take the same address-space lock and the same GC helper threads
 * as the serving thread, which then stalls for tens to hundreds of milliseconds.
 * The process loads at a low priority (nice 10; at the lowest, a busy machine could starve its start for
 * minutes), then lowers every thread of its own to the lowest before it takes work (worker-channel.ts).
 * It gets only a few harmless environment variables. Frames (frames.ts) go in on its stdin and come back
 * on fd 3 (stdout is left to whatever a library prints, and ignored).
 */
export class WorkerProcess {
  readonly exited: Promise<WorkerExit>;
  private readonly child: ChildProcess;
  private readonly input: Writable;
  private stderr = '';

  constructor(
    entry: URL,
    opts: WorkerProcessOptions,
    private readonly onFrame: (f: Frame) => void,
    onBroken: (err: Error) => void,
  ) {
    const node = [
      ...(opts.heapMb !== undefined ? [`--max-old-space-size=${opts.heapMb}`] : []),
      '--import',
      TSX,
      fileURLToPath(entry),
      ...(opts.args ?? []),
    ];
    const [cmd, args] = NICE
      ? [NICE, ['-n', LOADING_NICE, process.execPath, ...node]]
      : [process.execPath, node];
    this.child = spawn(cmd, args, {
      cwd: fileURLToPath(new URL('.', entry)),
      env: workerEnv(),
      stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.input = this.child.stdin as Writable;
    // A worker that exits while a frame is being written is reported by `exited`, not as a write error.
    this.input.on('error', () => undefined);
    const err = this.child.stderr as Readable;
    err.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-STDERR_TAIL);
    });
    const reader = new FrameReader(opts.maxFrameBytes);
    const out = this.child.stdio[3] as Readable;
    out.on('data', (d: Buffer) => {
      let frames: Frame[];
      try {
        frames = reader.push(d);
      } catch (e) {
        this.kill();
        onBroken(e as Error);
        return;
      }
      for (const f of frames) this.onFrame(f);
    });
    out.on('error', () => undefined);
    this.exited = new Promise<WorkerExit>((resolve) => {
      this.child.once('error', (e) => {
        onBroken(e);
        resolve({ code: null, signal: null, stderr: e.message });
      });
      // 'close' comes after the pipes have drained: every frame the worker wrote has been read.
      this.child.once('close', (code, signal) => resolve({ code, signal, stderr: this.stderr }));
    });
    // The server's life is not the worker's to extend; its owner ends it.
    this.child.unref();
    for (const s of [this.child.stdin, this.child.stderr, this.child.stdio[3]])
      (s as unknown as { unref?: () => void } | null)?.unref?.();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(head: Record<string, unknown>, body?: Uint8Array): void {
    if (!this.input.writable) return;
    for (const b of encodeFrame(head, body)) this.input.write(b);
  }

  /** Closes the worker's input: it finishes what it holds (closes its browser) and exits. */
  end(): void {
    // Its exit is awaited from here on: it holds the event loop until then.
    this.child.ref();
    this.input.end();
  }

  /** Ends the worker at once (it may be mid-render: nothing of it is wanted). */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.ref();
      this.child.kill('SIGKILL');
    }
  }
}

function workerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (ENV_KEPT.test(k)) env[k] = v;
  return env;
}

/** For a worker's stderr on its way to the log: what it says, not the whole of it. */
export function stderrGist(stderr: string): string {
  return stderr.trim().split('\n').slice(-5).join('\n');
}
