// Worker process entry: renders reports' Markdown to HTML, one at a time. It runs in a process of its own
// so that the renderer's super-linear cases (runs of emphasis markers, deep nesting, reference links that
// expand hundreds of times) cost this process, which the server kills at its deadline or memory limit,
// and never the process that serves every client. Started by markdown-renderer.ts; nothing imports it.
import { Marked } from 'marked';
import { nestingDepth } from './nesting.ts';
import { serveFrames } from './worker-channel.ts';

/** The job's head; the Markdown itself is the frame's body (UTF-8). */
export interface RenderJob {
  type: 'render';
  /** Deepest nesting of block quotes and lists accepted. */
  maxDepth: number;
  /** Largest HTML handed back, in UTF-8 bytes: what Chromium is then given to lay out. */
  maxHtmlBytes: number;
}

/** The answer's head; on success the HTML (UTF-8) is the frame's body. */
export type RenderOutcome = { ok: true } | { ok: false; reason: string };

function render(job: RenderJob, markdown: string): { head: RenderOutcome; html?: Uint8Array } {
  const depth = nestingDepth(markdown, job.maxDepth);
  if (depth > job.maxDepth)
    return {
      head: {
        ok: false,
        reason: `it nests block quotes or lists more than ${job.maxDepth} levels deep (or indents a line past ${2 * job.maxDepth} columns)`,
      },
    };
  let html: string;
  try {
    html = new Marked({ gfm: true }).parse(markdown, { async: false });
  } catch (err) {
    return {
      head: {
        ok: false,
        reason:
          err instanceof RangeError
            ? 'it nests too deeply for the Markdown renderer'
            : 'the Markdown renderer cannot render it',
      },
    };
  }
  // A UTF-8 byte is at least one UTF-16 unit: a string this long cannot fit, and is not encoded to find out.
  const bytes = html.length > job.maxHtmlBytes ? null : new TextEncoder().encode(html);
  if (!bytes || bytes.byteLength > job.maxHtmlBytes)
    return {
      head: {
        ok: false,
        reason: `it expands to more than ${job.maxHtmlBytes} bytes of HTML (reference links used many times?)`,
      },
    };
  return { head: { ok: true }, html: bytes };
}

// Reports one at a time, each answered on its own; the server kills this process when one overruns its
// deadline or its memory, so it never serves another after that. argv[2] is the largest frame the server
// sends. "ready" goes first, so that the server's deadline counts the rendering, not the start of Node.
const channel = serveFrames(Number(process.argv[2]), (f, ch) => {
  if (f.head.type !== 'render') return;
  const { head, html } = render(f.head as unknown as RenderJob, f.body.toString('utf8'));
  void ch.send(head, html);
});
void channel.send({ type: 'ready' });
