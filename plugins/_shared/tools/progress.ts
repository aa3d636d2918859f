import type { ToolContext } from '../../../kernel/sdk/index.ts';

/**
 * A synchronous progress callback that forwards to MCP progress notifications at most every 250 ms
 * (and always the last one), so a download of many chunks does not flood the session.
 */
export function throttledProgress(
  ctx: Pick<ToolContext, 'progress' | 'log'>,
): (done: number, total: number, message: string) => void {
  let last = 0;
  return (done, total, message) => {
    const now = Date.now();
    const final = total > 0 && done >= total;
    if (!final && now - last < 250) return;
    last = now;
    ctx.progress(done, total > 0 ? total : undefined, message).catch((err: unknown) => {
      ctx.log.debug({ err }, 'progress notification not sent');
    });
  };
}
