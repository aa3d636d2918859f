import {
  BadRequestError,
  structuredReply,
  toolsFor,
  z,
  type ContentBlock,
  type KernelError,
  type Product,
} from '../../../kernel/sdk/index.ts';
import { codedFailure, failIfNoneAnswered, partFailure, type CodedFailure } from '../node/node-failures.ts';
import { checkContent, keptName } from '../serviceability/logs/content.ts';
import { GET_FILE_API, getOneFile } from '../serviceability/logs/get-file.ts';
import type { LogState } from '../serviceability/logs/store.ts';
import { logScheme } from '../serviceability/logs/store.ts';
import type { ServiceabilityState } from '../serviceability/state.ts';
import { hostField } from './credential-input.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

/** Largest file fetched by default, and at most (the answer is held in memory while it is checked). */
const DEFAULT_FILE_BYTES = 8 * 1024 * 1024;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Bytes kept by one call at most, whatever the files. */
const MAX_CALL_BYTES = 128 * 1024 * 1024;

/**
 * A node's log path as selectLogFiles gives it: absolute, under /var/log, of a plain alphabet, no "."
 * or ".." segment. Anything else is refused before a request is sent (the API reads any file it is
 * named; this server asks it for logs only).
 */
export const logPath = z
  .string()
  .max(512)
  .regex(/^\/var\/log\/[A-Za-z0-9._ +@=,-]+(?:\/[A-Za-z0-9._ +@=,-]+)*$/, 'an absolute path under /var/log/')
  .refine((p) => !p.split('/').some((s) => s === '.' || s === '..'), 'no "." or ".." in the path');

/** `<product>_log_collect`: fetches chosen files (DimeGetFileService GetOneFile) into the caller's folder. */
export function logCollectTool(product: Product) {
  return toolsFor<ServiceabilityState & LogState>()({
    name: 'log_collect',
    title: `Collect ${PRODUCT_LABEL[product]} trace and log files`,
    description: `Fetches trace and log files from a ${PRODUCT_LABEL[product]} node (DimeGetFileService GetOneFile, one request per file) into your own log folder, and hands each over as a resource link (${logScheme(product)}://<you>/<name>, read with resources/read) with a one-time download link. files are absolute paths as ${product}_log_list gives them (under /var/log). A gzip trace is kept expanded as text; a compressed file that would expand beyond the limits (a decompression bomb) is refused. Each file is at most max_file_bytes as sent; your folder has a quota. Each node allows a few file requests a minute, shared by every client.`,
    input: {
      host: hostField,
      files: z.array(logPath).min(1).max(10).describe('Absolute paths on the node, from log_list'),
      max_file_bytes: z
        .number()
        .int()
        .min(1024)
        .max(MAX_FILE_BYTES)
        .default(DEFAULT_FILE_BYTES)
        .describe('Largest file fetched, as the node sends it'),
    },
    output: {
      node: z.string(),
      files: z.array(
        z.object({
          path: z.string(),
          name: z.string(),
          uri: z.string(),
          download_url: z.string(),
          download_expires_at: z.string(),
          mime_type: z.string(),
          bytes_received: z.number(),
          bytes_kept: z.number(),
          expanded: z.boolean(),
        }),
      ),
      failed: z.array(
        z.object({
          path: z.string(),
          error: z.object({
            code: z.string(),
            message: z.string(),
            retry_after_seconds: z.number().optional(),
          }),
        }),
      ),
      complete: z.boolean(),
      rate_limit: z.object({ per_minute: z.number(), remaining: z.number() }),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    // Operators and admins: a trace holds dialled numbers, user ids and addresses, beyond an audit's needs.
    access: { allowlist: 'serviceability', subject: () => 'GetOneFile' },
    service: 'serviceability',
    summary: (i) => ({
      operation: 'GetOneFile',
      detail: `host=${i.host} files=${i.files.slice(0, 5).join(', ')}${i.files.length > 5 ? ', ...' : ''}`,
    }),
    async handler(input, ctx) {
      const client = ctx.shared.serviceability;
      const store = ctx.shared.logs;
      const endpoint = await client.endpoint(ctx.vault, input.host);
      const paths = [...new Set(input.files)];
      let kept = 0;
      const files: Record<string, unknown>[] = [];
      const failed: { path: string; error: CodedFailure; cause: KernelError }[] = [];
      const links: ContentBlock[] = [];
      await client.session(endpoint, async (call) => {
        for (const path of paths) {
          try {
            if (kept >= MAX_CALL_BYTES)
              throw new BadRequestError(`this call already kept ${kept} bytes (at most ${MAX_CALL_BYTES})`);
            const data = await getOneFile(call, path, input.max_file_bytes, input.host, ctx.signal);
            const base = keptName(path, 'file');
            const checked = checkContent(data, base);
            const name = keptName(
              `${input.host}_${checked.kind === 'gzip' ? base.replace(/\.gz$/i, '') : base}`,
              'file',
            );
            const content = checked.kind === 'gzip' ? checked.expanded : data;
            const info = await store.write(ctx.caller.name, name, content);
            kept += content.length;
            ctx.audit({
              event: 'WRITTEN',
              status: 'OK',
              log: name,
              node: input.host,
              path,
              bytes: content.length,
            });
            const shared = ctx.kernel.shareFile(ctx.caller, logScheme(product), name);
            links.push(shared.link);
            files.push({
              path,
              name,
              uri: shared.link.uri,
              download_url: shared.downloadUrl,
              download_expires_at: shared.expiresAt,
              mime_type: info.mimeType,
              bytes_received: data.length,
              bytes_kept: content.length,
              expanded: checked.kind === 'gzip',
            });
          } catch (err) {
            // One file failing leaves the others: it is reported with its code.
            const cause = partFailure(err, ctx.signal);
            failed.push({ path, error: codedFailure(cause), cause });
          }
        }
      });
      failIfNoneAnswered(files, failed);
      return structuredReply(
        {
          node: input.host,
          files,
          failed: failed.map(({ path, error }) => ({ path, error })),
          complete: failed.length === 0,
          rate_limit: await client.budget(GET_FILE_API, endpoint),
        },
        links,
      );
    },
  });
}
