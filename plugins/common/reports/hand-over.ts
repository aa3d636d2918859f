import { z, type ResourceLink, type ToolContext } from '../../../kernel/sdk/index.ts';
import type { CommonShared } from '../shared.ts';

/** What a tool that made a report file adds to its structured result (and to its output schema). */
export const HANDED_OVER = {
  uri: z.string().describe('report://<client>/<name>: read it with resources/read (only you can)'),
  download_url: z
    .string()
    .describe('One-time HTTPS download link for a person, valid until download_expires_at'),
  download_expires_at: z.string(),
};

/**
 * A report file the caller just made, handed over: the `resource_link` block (the client reads the file
 * with resources/read) and the fields naming it, with a one-time download link for a person whose
 * client cannot show the file.
 */
export function handOver(
  ctx: ToolContext<CommonShared>,
  file: string,
): { link: ResourceLink; fields: { uri: string; download_url: string; download_expires_at: string } } {
  const shared = ctx.kernel.shareFile(ctx.caller, 'report', file);
  return {
    link: shared.link,
    fields: { uri: shared.link.uri, download_url: shared.downloadUrl, download_expires_at: shared.expiresAt },
  };
}
