import { BadRequestError, structuredReply, toolsFor, z, type Product } from '../../../kernel/sdk/index.ts';
import { eachNode, failIfNoneAnswered } from '../node/node-failures.ts';
import { assertCarriable } from '../node/wire-text.ts';
import {
  LOG_COLLECTION_API,
  LOG_COLLECTION_ARRAYS,
  listNodeServiceLogsFields,
  selectLogFilesFields,
} from '../serviceability/logs/api.ts';
import { readNodeServiceLogs, readSelectedLogs } from '../serviceability/logs/answers.ts';
import type { ServiceabilityState } from '../serviceability/state.ts';
import { hostField } from './credential-input.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

const logName = z.string().trim().min(1).max(128);

/** The longest window one call lists (a node keeps days of traces; a week is plenty to look through). */
const MAX_WINDOW_MINUTES = 7 * 24 * 60;

const fileShape = z.object({
  log: z.string(),
  name: z.string(),
  path: z.string().describe('The absolute path on the node'),
  size: z.number().nullable(),
  modified: z.string().nullable().describe("The node's own words for the time"),
  modified_at: z.string().nullable(),
});

const rate = z.object({ per_minute: z.number(), remaining: z.number() });

/** `<product>_log_list`: the trace and log files of a node's services (Log Collection). */
export function logListTool(product: Product) {
  return toolsFor<ServiceabilityState>()({
    name: 'log_list',
    title: `${PRODUCT_LABEL[product]} trace and log files (Log Collection)`,
    description: `The trace and log files of a ${PRODUCT_LABEL[product]} node, through the node's Log Collection API (LogCollectionPortTypeService). Without services and system_logs: the service and system logs of every node of the cluster (listNodeServiceLogs, one request). With them: the files of those logs on host (and on each of nodes, asked at its own address) last written within the window (selectLogFiles, one request per node): name, absolute path on the node, size and time. The window is the last since_minutes, or from/to (ISO 8601), at most a week. Each node allows a few Log Collection requests a minute, shared by every client.`,
    input: {
      host: hostField,
      nodes: z
        .array(hostField)
        .max(16)
        .default([])
        .describe('Other nodes of the cluster to list files of too (hosts with stored credentials)'),
      services: z
        .array(logName)
        .max(20)
        .default([])
        .describe(
          'Service logs, as listed without arguments, e.g. ["Cisco CallManager", "Cisco CTIManager"]',
        ),
      system_logs: z
        .array(logName)
        .max(10)
        .default([])
        .describe('System logs, e.g. ["Event Viewer-Application Log"]'),
      since_minutes: z
        .number()
        .int()
        .min(1)
        .max(MAX_WINDOW_MINUTES)
        .default(60)
        .describe('Files written in the last N minutes (ignored when from is given)'),
      from: z.string().datetime({ offset: true }).optional().describe('Window start, ISO 8601'),
      to: z.string().datetime({ offset: true }).optional().describe('Window end, ISO 8601 (default now)'),
    },
    output: {
      cluster: z
        .array(
          z.object({ node: z.string(), service_logs: z.array(z.string()), system_logs: z.array(z.string()) }),
        )
        .optional(),
      window: z.object({ from: z.string(), to: z.string() }).optional(),
      nodes: z.array(
        z.object({
          node: z.string(),
          files: z.array(fileShape),
          truncated: z.number(),
          rate_limit: rate,
        }),
      ),
      failed: z.array(
        z.object({
          node: z.string(),
          error: z.object({
            code: z.string(),
            message: z.string(),
            retry_after_seconds: z.number().optional(),
          }),
        }),
      ),
      complete: z.boolean(),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: {
      allowlist: 'serviceability',
      subject: (i) =>
        (Array.isArray(i.services) && i.services.length > 0) ||
        (Array.isArray(i.system_logs) && i.system_logs.length > 0)
          ? 'selectLogFiles'
          : 'listNodeServiceLogs',
    },
    service: 'serviceability',
    summary: (i) => {
      const select = i.services.length > 0 || i.system_logs.length > 0;
      return {
        operation: select ? 'selectLogFiles' : 'listNodeServiceLogs',
        detail: select
          ? `nodes=${[i.host, ...i.nodes].slice(0, 8).join(', ')} logs=${[...i.services, ...i.system_logs].slice(0, 8).join(', ')}`
          : `host=${i.host}`,
      };
    },
    async handler(input, ctx) {
      const client = ctx.shared.serviceability;
      const opt = ctx.signal ? { signal: ctx.signal } : {};
      const select = input.services.length > 0 || input.system_logs.length > 0;
      if (!select) {
        if (input.nodes.length > 0)
          throw new BadRequestError(
            'nodes needs services or system_logs: the list of logs comes from host for the whole cluster',
          );
        const endpoint = await client.endpoint(ctx.vault, input.host);
        const response = await client.call(endpoint, {
          api: LOG_COLLECTION_API,
          operation: 'listNodeServiceLogs',
          fields: listNodeServiceLogsFields(),
          arrays: LOG_COLLECTION_ARRAYS,
          ...opt,
        });
        return structuredReply({
          cluster: readNodeServiceLogs(response, input.host),
          nodes: [],
          failed: [],
          complete: true,
        });
      }
      assertCarriable([...input.services, ...input.system_logs], 'services', 'xml');
      const { from, to } = windowOf(input);
      const hosts = [...new Map([input.host, ...input.nodes].map((h) => [h.toLowerCase(), h])).values()];
      const { answered: nodes, failed } = await eachNode(
        hosts,
        async (host) => {
          const endpoint = await client.endpoint(ctx.vault, host);
          const response = await client.call(endpoint, {
            api: LOG_COLLECTION_API,
            operation: 'selectLogFiles',
            fields: selectLogFilesFields(input.services, input.system_logs, from, to),
            arrays: LOG_COLLECTION_ARRAYS,
            ...opt,
          });
          const selected = readSelectedLogs(response, host);
          return {
            node: host,
            files: selected.logs.flatMap((l) => l.files.map((f) => ({ log: l.name, ...f }))),
            truncated: selected.truncated,
            rate_limit: await client.budget(LOG_COLLECTION_API, endpoint),
          };
        },
        ctx.signal,
      );
      failIfNoneAnswered(nodes, failed);
      return structuredReply({
        window: { from: from.toISOString(), to: to.toISOString() },
        nodes,
        failed: failed.map(({ node, error }) => ({ node, error })),
        complete: failed.length === 0,
      });
    },
  });
}

function windowOf(input: { since_minutes: number; from?: string | undefined; to?: string | undefined }): {
  from: Date;
  to: Date;
} {
  const to = input.to !== undefined ? new Date(input.to) : new Date();
  const from =
    input.from !== undefined ? new Date(input.from) : new Date(to.getTime() - input.since_minutes * 60_000);
  if (from.getTime() > to.getTime()) throw new BadRequestError('from is after to');
  if (to.getTime() - from.getTime() > MAX_WINDOW_MINUTES * 60_000)
    throw new BadRequestError(`the window is longer than ${MAX_WINDOW_MINUTES / 1440} days`);
  return { from, to };
}
