import { structuredReply, z, type ToolContext } from '../../../kernel/sdk/index.ts';
import { assertCarriable } from '../../_shared/node/wire-text.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { RIS_OPERATIONS } from '../ris/constants.ts';
import { CTI_CLASSES, CTI_OPERATION, CTI_SELECT_APP_BY, CTI_STATUSES } from '../ris/cti.ts';
import { cucmTool, type CucmShared } from '../shared.ts';

// RisPort70's enumerations (CmSelectionCriteria), so that a typo is refused here, not by the node after
// spending one of the cluster's 15 requests per minute.
const DEVICE_CLASSES = [
  'Any',
  'Phone',
  'Gateway',
  'H323',
  'Cti',
  'VoiceMail',
  'MediaResources',
  'HuntList',
  'SIPTrunk',
  'Unknown',
] as const;
const STATUSES = ['Any', 'Registered', 'UnRegistered', 'Rejected', 'PartiallyRegistered', 'Unknown'] as const;
const SELECT_BY = ['Name', 'IPV4Address', 'IPV6Address', 'DirNumber', 'Description', 'SIPStatus'] as const;
const PROTOCOLS = ['Any', 'SIP', 'SCCP', 'Unknown'] as const;
const DOWNLOAD_STATUSES = ['Any', 'Upgrading', 'Successful', 'Failed', 'Unknown'] as const;

const patterns = z.array(z.string().min(1).max(256)).max(1000);

export const risportQueryInput = {
  host: hostField,
  kind: z
    .enum(['devices', 'cti'])
    .default('devices')
    .describe('devices: registration (selectCmDevice[Ext]); cti: CTI connections (selectCtiItem)'),
  operation: z
    .enum(RIS_OPERATIONS)
    .default('selectCmDeviceExt')
    .describe('Same criteria and answer either way'),
  device_class: z.enum(DEVICE_CLASSES).default('Any'),
  model: z
    .number()
    .int()
    .min(0)
    .max(99_999)
    .default(255)
    .describe('RisPort model enum number; 255 = any model'),
  status: z.enum(STATUSES).default('Any'),
  select_by: z.enum(SELECT_BY).default('Name').describe('What select_items are matched against'),
  select_items: z
    .array(z.string().min(1).max(256))
    .min(1)
    .max(1000)
    .default(['*'])
    .describe('Patterns with * wildcards, e.g. ["SEP0011*"], ["10.1.2.*"], ["1001"]'),
  node_name: z.string().max(255).default('').describe('Only this CallManager node (name as RIS reports it)'),
  protocol: z.enum(PROTOCOLS).default('Any'),
  download_status: z.enum(DOWNLOAD_STATUSES).default('Any'),
  max_returned_devices: z
    .number()
    .int()
    .min(1)
    .max(2000)
    .default(1000)
    .describe('Records per request (nodes cap it at 1000 or 2000)'),
  max_devices: z
    .number()
    .int()
    .min(1)
    .max(50_000)
    .default(2000)
    .describe('Devices per answer; past it, state_info'),
  max_requests: z.number().int().min(1).max(15).default(5).describe("Of the cluster's 15 requests a minute"),
  cti_class: z
    .enum(CTI_CLASSES)
    .default('Provider')
    .describe('kind cti: Provider (applications), Device or Line (what they control)'),
  cti_status: z.enum(CTI_STATUSES).default('Any').describe('kind cti: status of what cti_class names'),
  select_app_by: z
    .enum(CTI_SELECT_APP_BY)
    .default('AppId')
    .describe('kind cti: what app_items are matched against'),
  app_items: patterns.default([]).describe('kind cti: application patterns with * wildcards; [] = all'),
  dev_names: patterns.default([]).describe('kind cti: device name patterns; [] = all'),
  dir_numbers: patterns.default([]).describe('kind cti: directory number patterns; [] = all'),
  state_info: z
    .string()
    .max(64 * 1024)
    .optional()
    .describe('From an earlier answer, to continue it'),
};

/** `cucm_risport_query`: real-time registration of devices, every page, one record per device. */
export default cucmTool({
  name: 'risport_query',
  title: 'Query CUCM device registration (RisPort70)',
  description:
    "Device registration from RisPort70 (selectCmDeviceExt or selectCmDevice): one record per device (status, status_reason, IPs, DNs, model, protocol, node), paged and de-duplicated, within the cluster's 15 requests a minute. kind cti asks selectCtiItem instead: the CTI applications connected to each node (cti_class Provider) or the devices or lines they control, in cti_items. An answer that stops early carries stopped_because and state_info: repeat the call with it. Needs cucm_download_ris_toolkit.",
  input: risportQueryInput,
  // The envelope is the server's (paging, counts, budget); a device carries what its node reported.
  output: {
    host: z.string(),
    operation: z.string(),
    complete: z.boolean(),
    incomplete: z.object({ code: z.string(), reason: z.string() }).optional(),
    stopped_because: z.string().optional(),
    retry_after_seconds: z.number().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    state_info: z.string().optional(),
    dedupe_across_calls: z.boolean().optional(),
    answer_shape: z.enum(['cucm15', 'legacy']).optional(),
    requests: z.number(),
    records_read: z.number(),
    duplicates_merged: z.number(),
    devices_returned: z.number(),
    nodes: z.array(z.looseObject({ name: z.string(), records_read: z.number(), devices: z.number() })),
    by_status: z.record(z.string(), z.number()),
    devices: z.array(z.looseObject({ name: z.string(), node: z.string(), status: z.string() })),
    cti_items: z
      .array(
        z.looseObject({ node: z.string(), app_id: z.string(), user_id: z.string(), app_status: z.string() }),
      )
      .optional(),
    rate_limit: z.object({ per_minute: z.number(), remaining: z.number() }),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: { allowlist: 'ris', subject: (i) => (i.kind === 'cti' ? CTI_OPERATION : String(i.operation)) },
  service: 'ris',
  summary: (i) =>
    i.kind === 'cti'
      ? {
          operation: CTI_OPERATION,
          detail:
            `class=${i.cti_class} status=${i.cti_status} select_app_by=${i.select_app_by}` +
            ` apps=${i.app_items.slice(0, 8).join(', ')} devices=${i.dev_names.slice(0, 8).join(', ')}` +
            ` lines=${i.dir_numbers.slice(0, 8).join(', ')}` +
            `${i.node_name ? ` node=${i.node_name}` : ''}${i.state_info ? ' (continued)' : ''}`,
        }
      : risSummary(i),
  async handler(input, ctx) {
    if (input.kind === 'cti') {
      for (const [name, value] of [
        ['app_items', input.app_items],
        ['dev_names', input.dev_names],
        ['dir_numbers', input.dir_numbers],
        ['node_name', input.node_name],
      ] as const)
        assertCarriable(value, name, 'xml');
      const cti = await ctx.shared.ris.queryCti(
        ctx.vault,
        input.host,
        {
          criteria: {
            maxReturnedItems: input.max_returned_devices,
            ctiMgrClass: input.cti_class,
            status: input.cti_status,
            nodeName: input.node_name,
            selectAppBy: input.select_app_by,
            appItems: input.app_items,
            devNames: input.dev_names,
            dirNumbers: input.dir_numbers,
          },
          ...(input.state_info ? { stateInfo: input.state_info } : {}),
          maxItems: input.max_devices,
          maxRequests: input.max_requests,
        },
        ctx.signal,
      );
      return structuredReply({ host: input.host, ...cti });
    }
    return devices(input, ctx);
  },
});

type Input = z.output<z.ZodObject<typeof risportQueryInput>>;

function risSummary(i: Input): { operation: string; detail: string } {
  return {
    operation: i.operation,
    detail:
      `select_by=${i.select_by} items=${i.select_items.slice(0, 8).join(', ')}` +
      `${i.select_items.length > 8 ? ` (+${i.select_items.length - 8})` : ''} class=${i.device_class}` +
      ` status=${i.status} model=${i.model} protocol=${i.protocol} download=${i.download_status}` +
      `${i.node_name ? ` node=${i.node_name}` : ''}${i.state_info ? ' (continued)' : ''}`,
  };
}

async function devices(input: Input, ctx: ToolContext<CucmShared>) {
  // The criteria go into a SOAP envelope: refused here, with their names, before anything is sent.
  assertCarriable(input.select_items, 'select_items', 'xml');
  assertCarriable(input.node_name, 'node_name', 'xml');
  const answer = await ctx.shared.ris.query(
    ctx.vault,
    input.host,
    {
      operation: input.operation,
      criteria: {
        maxReturnedDevices: input.max_returned_devices,
        deviceClass: input.device_class,
        model: input.model,
        status: input.status,
        nodeName: input.node_name,
        selectBy: input.select_by,
        selectItems: input.select_items,
        protocol: input.protocol,
        downloadStatus: input.download_status,
      },
      ...(input.state_info ? { stateInfo: input.state_info } : {}),
      maxDevices: input.max_devices,
      maxRequests: input.max_requests,
    },
    ctx.signal,
  );
  if (answer.stopped_because)
    ctx.log.info(
      { host: input.host, stopped_because: answer.stopped_because, requests: answer.requests },
      'RisPort query stopped early; the answer carries state_info',
    );
  return structuredReply({ host: input.host, ...answer });
}
