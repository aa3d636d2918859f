// Worker process entry: owns the Chromium browser and prints reports' HTML to PDF. Started by
// pdf-renderer.ts; nothing imports it. Handing HTML to Chromium and taking the PDF back costs playwright
// CPU and memory in proportion to their size, all of it in this process, never in the one that serves
// clients. argv: the Chromium executable, the print deadline in ms, the largest frame the server sends.
import { ChromiumPrinter, PrintFailure } from './chromium-printer.ts';
import { serveFrames } from './worker-channel.ts';

/** A report to print: the head; its HTML (UTF-8) is the frame's body. */
export interface PrintJob {
  type: 'print';
  id: number;
  title: string;
}

/** The answer's head; on success the PDF is the frame's body. */
export type PrintAnswer =
  | { id: number; ok: true }
  | { id: number; ok: false; kind: 'too-complex' | 'unavailable'; message: string; detail?: string };

const [executablePath = '', timeoutMs = '60000', maxFrameBytes = '0'] = process.argv.slice(2);
const printer = new ChromiumPrinter(executablePath, Number(timeoutMs));

// The server closing the channel (an idle close, its own stop, or the server gone) closes the browser and
// its leftover processes before this process ends.
serveFrames(
  Number(maxFrameBytes),
  (f, channel) => {
    if (f.head.type !== 'print') return;
    const job = f.head as unknown as PrintJob;
    void answer(job, f.body.toString('utf8')).then(({ head, pdf }) => channel.send(head, pdf));
  },
  () => printer.close(),
);

async function answer(job: PrintJob, html: string): Promise<{ head: PrintAnswer; pdf?: Uint8Array }> {
  try {
    const pdf = await printer.print(html, job.title);
    return { head: { id: job.id, ok: true }, pdf };
  } catch (err) {
    const f =
      err instanceof PrintFailure
        ? err
        : new PrintFailure('unavailable', 'the PDF printer failed', (err as Error).message);
    return {
      head: {
        id: job.id,
        ok: false,
        kind: f.kind,
        message: f.message,
        ...(f.detail !== undefined ? { detail: f.detail } : {}),
      },
    };
  }
}
