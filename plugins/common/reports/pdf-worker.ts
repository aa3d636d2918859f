// Worker thread entry: owns the Chromium browser and prints reports' HTML to PDF. Started once by
// pdf-renderer.ts; nothing else imports it. Handing HTML to Chromium and taking the PDF back costs
// playwright CPU in proportion to their size, all of it here, never on the thread that serves clients.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { ChromiumPrinter, PrintFailure } from './chromium-printer.ts';

export interface PrinterConfig {
  executablePath: string;
  timeoutMs: number;
}

/** A report to print: its HTML as UTF-8, moved (not copied) here. */
export interface PrintJob {
  type: 'print';
  id: number;
  html: ArrayBuffer;
  title: string;
}

export type PrintAnswer =
  | { id: number; ok: true; pdf: ArrayBuffer }
  | { id: number; ok: false; kind: 'too-complex' | 'unavailable'; message: string; detail?: string };

// Lowest priority first, before Chromium is started from this thread: the browser's processes inherit
// it, so layout and printing never take a contended core from the serving thread (on Linux, where the
// nice value belongs to the thread; refused elsewhere, which costs only that preference).
try {
  setPriority(19);
} catch {
  // not permitted here: printing still works, at normal priority
}

const config = (workerData as { data: PrinterConfig }).data;
const printer = new ChromiumPrinter(config.executablePath, config.timeoutMs);
const port = parentPort;

port?.on('message', (m: PrintJob | { type: 'close' }) => {
  if (m.type === 'close') {
    void printer.close().finally(() => port.close());
    return;
  }
  void answer(m).then((a) => port.postMessage(a, a.ok ? [a.pdf] : []));
});

async function answer(job: PrintJob): Promise<PrintAnswer> {
  try {
    const pdf = await printer.print(new TextDecoder().decode(job.html), job.title);
    // A buffer of its own, to move to the parent whole.
    const own = new Uint8Array(pdf.byteLength);
    own.set(pdf);
    return { id: job.id, ok: true, pdf: own.buffer };
  } catch (err) {
    const f =
      err instanceof PrintFailure
        ? err
        : new PrintFailure('unavailable', 'the PDF printer failed', (err as Error).message);
    return {
      id: job.id,
      ok: false,
      kind: f.kind,
      message: f.message,
      ...(f.detail !== undefined ? { detail: f.detail } : {}),
    };
  }
}
