import { ServiceabilityError, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { CDR_ON_DEMAND_API, CDR_OPS, getFileFields } from '../../_shared/serviceability/cdr/api.ts';
import type { CdrTable } from '../../_shared/serviceability/cdr/csv.ts';
import { parseCdrCsv } from '../../_shared/serviceability/cdr/csv.ts';
import { oneAtATime, RECEIVE_DIRECTORY, startReceiver } from '../../_shared/serviceability/cdr/receiver.ts';
import { shapeRow } from '../../_shared/serviceability/cdr/rows.ts';
import { parseFileName } from '../../_shared/serviceability/cdr/times.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { cucmTool } from '../shared.ts';

/** A CDR or CMR file name as the repository writes them (tag_clusterId_nodeId_datetime_seqNumber). */
const fileName = z
  .string()
  .trim()
  .regex(
    /^(cdr|cmr)_[A-Za-z0-9._-]{1,100}_\d{2,3}_\d{12}_\d{1,12}$/,
    'a CDR or CMR file name from cucm_cdr_files',
  );

/** The file read into a table; a file that is no CDR file is the node's error, named. */
function readTable(name: string, data: Buffer, maxRows: number): CdrTable {
  try {
    return parseCdrCsv(data.toString('utf8'), { maxRows, maxLineChars: 64 * 1024, maxFieldChars: 1024 });
  } catch (err) {
    throw new ServiceabilityError(`${name}: ${(err as Error).message}`);
  }
}

/** Files per call: get_file sends one file per request and each transfer takes a while. */
const MAX_FILES = 5;

/** `cucm_cdr_get`: CDR or CMR files fetched from the CDR Repository node and read into records. */
export default cucmTool({
  name: 'cdr_get',
  title: 'Read CUCM CDR and CMR files (CDR on Demand)',
  description: `Fetches up to ${MAX_FILES} CDR or CMR files named by cucm_cdr_files from the CDR Repository node (CDRonDemandService get_file) and reads them into records: for CDRs the call id, origination, connect and disconnect times (ISO 8601), duration, calling and called numbers, devices and the origCause_value / destCause_value termination causes decoded (Q.850); for CMRs the packets sent, received and lost, jitter, latency and the voice quality metrics. fields all gives every field of the file. The node does not return a file in its answer: it pushes it by SFTP to this server, which listens for that one transfer only (CDR_SFTP_ADDRESS must be the address the node reaches this server at). Rows are capped by max_rows per file and files by CDR_FILE_MAX_BYTES. Each file costs one of the node's few CDRonDemand requests a minute. CUCM only.`,
  input: {
    host: hostField.describe('The CDR Repository node (the publisher): name or IP, optional :port'),
    files: z.array(fileName).min(1).max(MAX_FILES).describe('File names from cucm_cdr_files'),
    fields: z
      .enum(['summary', 'all'])
      .default('summary')
      .describe('summary: the usual fields; all: every field'),
    max_rows: z.number().int().min(1).max(1000).default(100).describe('Records per file at most'),
  },
  output: {
    host: z.string(),
    files: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(['cdr', 'cmr', 'other']),
        bytes: z.number(),
        records: z.number(),
        rows: z.array(z.record(z.string(), z.unknown())),
        truncated: z.boolean(),
        skipped_lines: z.object({ too_long: z.number(), malformed: z.number(), wrong_width: z.number() }),
      }),
    ),
    requests: z.number(),
    rate: z.object({ per_minute: z.number(), remaining: z.number() }),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: { allowlist: 'serviceability', subject: () => CDR_OPS.get },
  service: 'serviceability',
  summary: (i) => ({
    operation: CDR_OPS.get,
    detail: `files=${((i.files as string[] | undefined) ?? []).slice(0, MAX_FILES).join(',')}`,
  }),
  async handler(input, ctx) {
    const transfer = ctx.shared.cdrTransfer;
    if (!transfer?.address)
      throw new ServiceabilityError(
        'cucm_cdr_get needs CDR_SFTP_ADDRESS: the address the CUCM node reaches this server at (the node pushes each file there by SFTP)',
      );
    const client = ctx.shared.serviceability;
    const node = await client.endpoint(ctx.vault, input.host);
    const out = [];
    let requests = 0;
    for (const name of [...new Set(input.files)]) {
      requests++;
      const data = await oneAtATime(`${transfer.bindAddress}:${transfer.port}`, async () => {
        const receiver = await startReceiver({
          bindAddress: transfer.bindAddress,
          port: transfer.port,
          fileName: name,
          maxBytes: transfer.maxBytes,
          timeoutMs: transfer.timeoutMs,
        });
        try {
          // Sent once: a repeated get_file would push the file again to a receiver that took it already.
          await client.call(node, {
            api: CDR_ON_DEMAND_API,
            operation: CDR_OPS.get,
            fields: getFileFields(
              transfer.address,
              receiver.user,
              receiver.password,
              RECEIVE_DIRECTORY,
              name,
            ),
            idempotent: false,
            ...(ctx.signal ? { signal: ctx.signal } : {}),
          });
          return await receiver.file;
        } finally {
          receiver.close();
        }
      });
      const table = readTable(name, data, input.max_rows);
      const types = Object.fromEntries(table.columns.map((c, k) => [c, table.types[k] ?? '']));
      const kind = parseFileName(name).kind;
      out.push({
        name,
        kind,
        bytes: data.length,
        records: table.rows.length,
        rows: table.rows.map((r) => shapeRow(kind, r, types, input.fields === 'all')),
        truncated: table.truncated,
        skipped_lines: table.skipped,
      });
    }
    return structuredReply({
      host: input.host,
      files: out,
      requests,
      rate: await client.budget(CDR_ON_DEMAND_API, node),
    });
  },
});
