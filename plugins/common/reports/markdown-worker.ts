// Worker thread entry: renders one report's Markdown to HTML and exits. It runs in a worker so that the
// renderer's super-linear cases (runs of emphasis markers, deep nesting, reference links that expand
// hundreds of times) cost this thread, which the parent stops at its deadline or memory limit, and never
// the thread that serves every client. Started by markdown-renderer.ts; nothing else imports it.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Marked } from 'marked';
import { nestingDepth } from './nesting.ts';

export interface RenderJob {
  markdown: string;
  /** Deepest nesting of block quotes and lists accepted. */
  maxDepth: number;
  /** Largest HTML handed back, in UTF-8 bytes: what Chromium is then given to lay out. */
  maxHtmlBytes: number;
}

/** The HTML as UTF-8 in a buffer of its own, transferred rather than copied. */
export type RenderOutcome = { ok: true; html: ArrayBuffer } | { ok: false; reason: string };

function render(job: RenderJob): RenderOutcome {
  const depth = nestingDepth(job.markdown, job.maxDepth);
  if (depth > job.maxDepth)
    return {
      ok: false,
      reason: `it nests block quotes or lists more than ${job.maxDepth} levels deep (or indents a line past ${2 * job.maxDepth} columns)`,
    };
  let html: string;
  try {
    html = new Marked({ gfm: true }).parse(job.markdown, { async: false });
  } catch (err) {
    return {
      ok: false,
      reason:
        err instanceof RangeError
          ? 'it nests too deeply for the Markdown renderer'
          : 'the Markdown renderer cannot render it',
    };
  }
  // A UTF-8 byte is at least one UTF-16 unit: a string this long cannot fit, and is not encoded to find out.
  const bytes = html.length > job.maxHtmlBytes ? null : new TextEncoder().encode(html);
  if (!bytes || bytes.byteLength > job.maxHtmlBytes)
    return {
      ok: false,
      reason: `it expands to more than ${job.maxHtmlBytes} bytes of HTML (reference links used many times?)`,
    };
  return { ok: true, html: bytes.buffer as ArrayBuffer };
}

// On Linux the nice value belongs to the thread: the lowest priority makes the serving thread win every
// contended core from the renderer. Refused elsewhere, which costs only that preference.
try {
  setPriority(19);
} catch {
  // not permitted here: the renderer still runs, at normal priority
}
const outcome = render((workerData as { data: RenderJob }).data);
parentPort?.postMessage(outcome, outcome.ok ? [outcome.html] : []);
