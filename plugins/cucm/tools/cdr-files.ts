import { BadRequestError, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { CDR_MAX_WINDOW_MINUTES, CDR_ON_DEMAND_API, CDR_OPS } from '../../_shared/serviceability/cdr/api.ts';
import { listFiles } from '../../_shared/serviceability/cdr/files.ts';
import type { CdrFileName } from '../../_shared/serviceability/cdr/times.ts';
import { isoMinute, parseCdrTime } from '../../_shared/serviceability/cdr/times.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { cucmTool } from '../shared.ts';

/**
 * The longest span one call lists: six of the API's one-hour windows, so that a call stays within the
 * node's assumed ten requests a minute with room for continuations. A longer span is refused (BAD_REQUEST)
 * before anything is sent, never cut silently.
 */
export const MAX_SPAN_MINUTES = 6 * CDR_MAX_WINDOW_MINUTES;

/** get_file_list requests at most per call: the windows and the continuations of full answers. */
export const MAX_REQUESTS = 10;

const timeField = z
  .string()
  .trim()
  .max(40)
  .regex(
    /^(\d{12}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))$/,
    'YYYYMMDDHHMM (UTC) or ISO 8601 with a zone, e.g. 2026-11-26T07:00Z',
  );

/** An epoch minute from the argument, seconds dropped. */
function minuteArg(text: string, name: string): number {
  const minute = /^\d{12}$/.test(text) ? parseCdrTime(text) : Date.parse(text) / 60_000;
  if (minute === undefined || !Number.isFinite(minute))
    throw new BadRequestError(`${name} '${text}' is not a real date and time`);
  return Math.floor(minute);
}

const fileShape = z.object({
  name: z.string(),
  kind: z.enum(['cdr', 'cmr', 'other']),
  cluster_id: z.string().optional(),
  node_id: z.string().optional(),
  time: z.string().optional(),
  sequence: z.number().optional(),
});

/** `cucm_cdr_files`: the CDR and CMR files the CDR Repository node holds for a span (CDRonDemand get_file_list). */
export default cucmTool({
  name: 'cdr_files',
  title: 'List CUCM CDR and CMR files (CDR on Demand)',
  description: `The CDR and CMR flat files the cluster's CDR Repository node (the publisher) holds for a span of time, from CDRonDemandService get_file_list: names with their kind, cluster id, node id, UTC time and sequence number. from and to are UTC minutes (YYYYMMDDHHMM or ISO 8601 with a zone); to defaults to from + 60 minutes. The API answers at most one hour per request and at most 1300 names per answer: the span is cut into one-hour windows and a full answer is asked again from its last file's time. At most ${MAX_SPAN_MINUTES / 60} hours per call (longer: BAD_REQUEST, ask several calls) and ${MAX_REQUESTS} requests; an answer that stops early says so in complete and stopped_because. include_sent false lists only the files that failed to reach the billing servers. The node allows few requests a minute, shared by every client: past it SERVICEABILITY_ERROR with retry_after_seconds. CUCM only (the service runs on the CDR Repository node).`,
  input: {
    host: hostField.describe('The CDR Repository node (the publisher): name or IP, optional :port'),
    from: timeField.describe('Start, UTC: YYYYMMDDHHMM or ISO 8601 with a zone'),
    to: timeField.optional().describe('End, UTC; default from + 60 minutes'),
    include_sent: z
      .boolean()
      .default(true)
      .describe('false: only the files that failed to reach the billing servers'),
    kind: z.enum(['all', 'cdr', 'cmr']).default('all').describe('cdr: call records; cmr: call quality'),
    max_files: z.number().int().min(1).max(5000).default(1000).describe('Files listed at most'),
  },
  output: {
    host: z.string(),
    from: z.string(),
    to: z.string(),
    include_sent: z.boolean(),
    files: z.array(fileShape),
    counts: z.object({ cdr: z.number(), cmr: z.number(), other: z.number() }),
    windows: z.array(z.object({ from: z.string(), to: z.string(), files: z.number(), requests: z.number() })),
    complete: z.boolean(),
    stopped_because: z.string().optional(),
    unreadable_names: z.number().optional(),
    requests: z.number(),
    rate: z.object({ per_minute: z.number(), remaining: z.number() }),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: { allowlist: 'serviceability', subject: () => CDR_OPS.list },
  service: 'serviceability',
  summary: (i) => ({
    operation: CDR_OPS.list,
    detail: `from=${String(i.from)} to=${String(i.to ?? '+60m')}${i.include_sent === false ? ' failed-only' : ''}`,
  }),
  async handler(input, ctx) {
    const from = minuteArg(input.from, 'from');
    const to = input.to === undefined ? from + CDR_MAX_WINDOW_MINUTES : minuteArg(input.to, 'to');
    if (to <= from)
      throw new BadRequestError(`to (${isoMinute(to)}) must be after from (${isoMinute(from)})`);
    if (to - from > MAX_SPAN_MINUTES)
      throw new BadRequestError(
        `from ${isoMinute(from)} to ${isoMinute(to)} spans ${to - from} minutes; one call lists at most ${MAX_SPAN_MINUTES} (${MAX_SPAN_MINUTES / 60} one-hour get_file_list windows): ask shorter spans in several calls`,
      );
    const client = ctx.shared.serviceability;
    const node = await client.endpoint(ctx.vault, input.host);
    const result = await client.session(node, (call) =>
      listFiles(
        call,
        { from, to },
        {
          includeSent: input.include_sent,
          maxFiles: input.max_files,
          maxRequests: MAX_REQUESTS,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        },
      ),
    );
    // The epoch minute served ordering and continuation; the answer gives the ISO time.
    const files = result.files
      .filter((f) => input.kind === 'all' || f.kind === input.kind)
      .map((f) => {
        const out: Omit<CdrFileName, 'minute'> & { minute?: number } = { ...f };
        delete out.minute;
        return out;
      });
    const count = (k: string): number => files.filter((f) => f.kind === k).length;
    return structuredReply({
      host: input.host,
      from: isoMinute(from),
      to: isoMinute(to),
      include_sent: input.include_sent,
      files,
      counts: { cdr: count('cdr'), cmr: count('cmr'), other: count('other') },
      windows: result.windows,
      complete: result.complete,
      ...(result.stopped_because ? { stopped_because: result.stopped_because } : {}),
      ...(result.unreadable_names > 0 ? { unreadable_names: result.unreadable_names } : {}),
      requests: result.requests,
      rate: await client.budget(CDR_ON_DEMAND_API, node),
    });
  },
});
