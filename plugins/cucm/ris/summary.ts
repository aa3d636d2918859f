// The JSON a query answers (the risport_query tool returns it as is): what was read, what stopped it,
// one record per device, and counts an agent would otherwise compute from thousands of records.
import type { RisOperation } from './constants.ts';
import type { CtiItem } from './cti.ts';
import type { DeviceMerger, MergedDevice } from './devices.ts';
import type { ChangedNode, NodeTally, PagingOutcome } from './paging.ts';

/** The coded reason of an answer whose nodes' records changed while it paged. */
function shifted(changed: ChangedNode[] | undefined): Pick<RisAnswer, 'incomplete'> {
  if (!changed || changed.length === 0) return {};
  const what = changed.map((c) => `${c.node} from ${c.from} to ${c.to}`).join(', ');
  return {
    incomplete: {
      code: 'ROWS_SHIFTED',
      reason: `the records the nodes page through changed while this query paged (${what}), so a record may have been skipped; repeat the query without state_info`,
    },
  };
}

export interface RisAnswer {
  operation: RisOperation | 'selectCtiItem';
  complete: boolean;
  /** Why a finished query is not complete: a node's records changed between its pages. */
  incomplete?: { code: 'ROWS_SHIFTED'; reason: string };
  stopped_because?: PagingOutcome['stoppedBecause'];
  retry_after_seconds?: number;
  error?: { code: string; message: string };
  /** Pass back as `state_info` (same host, operation and criteria) to continue; absent when complete. */
  state_info?: string;
  /** When continuing: false if the server no longer held what earlier calls returned (restart, 15 min). */
  dedupe_across_calls?: boolean;
  answer_shape?: 'cucm15' | 'legacy';
  requests: number;
  records_read: number;
  /** Records not returned as devices of their own: other nodes' copies, and devices already returned. */
  duplicates_merged: number;
  devices_returned: number;
  /** Per CallManager node: records it sent, records it holds (StateInfo), devices returned as its. */
  nodes: (NodeTally & { devices: number })[];
  by_status: Record<string, number>;
  devices: MergedDevice[];
  /** selectCtiItem: the CTI connections (and the devices or lines they control), node by node. */
  cti_items?: CtiItem[];
  /** The cluster's RisPort budget as this server sees it after the call. */
  rate_limit: { per_minute: number; remaining: number };
}

export function summarise(
  operation: RisOperation,
  outcome: PagingOutcome,
  merger: DeviceMerger,
  o: { cursor?: string; dedupeAcrossCalls?: boolean; rate: RisAnswer['rate_limit'] },
): RisAnswer {
  const devices = merger.devices();
  const perNode = new Map<string, number>();
  const byStatus: Record<string, number> = {};
  for (const d of devices) {
    perNode.set(d.node, (perNode.get(d.node) ?? 0) + 1);
    byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;
  }
  return {
    operation,
    ...howPagingEnded(outcome, o.cursor),
    ...(o.dedupeAcrossCalls !== undefined ? { dedupe_across_calls: o.dedupeAcrossCalls } : {}),
    ...(outcome.shape ? { answer_shape: outcome.shape } : {}),
    requests: outcome.requests,
    records_read: merger.records,
    duplicates_merged: merger.records - devices.length,
    devices_returned: devices.length,
    nodes: outcome.nodes.map((n) => ({ ...n, devices: perNode.get(n.name) ?? 0 })),
    by_status: byStatus,
    devices,
    rate_limit: o.rate,
  };
}

/** Whether the pages were read to the end, and if not why, and where to continue: for both answers. */
function howPagingEnded(outcome: PagingOutcome, cursor: string | undefined) {
  return {
    complete: outcome.complete,
    ...shifted(outcome.changed),
    ...(outcome.stoppedBecause ? { stopped_because: outcome.stoppedBecause } : {}),
    ...(outcome.retryAfterSeconds !== undefined ? { retry_after_seconds: outcome.retryAfterSeconds } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(cursor ? { state_info: cursor } : {}),
  };
}

/**
 * A selectCtiItem answer in the same envelope: records_read counts the items, by_status counts them by
 * the status of what was asked (application, device or line), and the items go in cti_items.
 */
export function summariseCti(
  outcome: PagingOutcome,
  items: CtiItem[],
  o: { cursor?: string; rate: RisAnswer['rate_limit'] },
): RisAnswer {
  const byStatus: Record<string, number> = {};
  for (const i of items) {
    const status = i.line?.status ?? i.device?.status ?? i.app_status;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  }
  return {
    operation: 'selectCtiItem',
    ...howPagingEnded(outcome, o.cursor),
    ...(outcome.shape ? { answer_shape: outcome.shape } : {}),
    requests: outcome.requests,
    records_read: items.length,
    duplicates_merged: 0,
    devices_returned: 0,
    nodes: outcome.nodes.map((n) => ({ ...n, devices: 0 })),
    by_status: byStatus,
    devices: [],
    cti_items: items,
    rate_limit: o.rate,
  };
}
