// Reads a query page after page with StateInfo until the nodes have nothing left or a budget is spent
// (requests, devices, the cluster's rate). Stopping early is never silent: the outcome says why and
// carries the StateInfo to continue from.
import { isKernelError } from '../../../kernel/sdk/index.ts';
import type { AnswerShape, RisPage } from './answer.ts';
import type { DeviceMerger } from './devices.ts';
import { RisRateLimitError } from './errors.ts';
import { pagingDone, readProgress } from './state-info.ts';

export type StopReason = 'max_requests' | 'max_devices' | 'rate_limit' | 'error';

export interface PagingPlan {
  stateInfo: string;
  maxRequests: number;
  /** Unique devices this answer may hold; each request asks for no more than the room left. */
  maxDevices: number;
  /** MaxReturnedDevices of each request. */
  perRequest: number;
  merger: DeviceMerger;
  send(stateInfo: string, maxReturned: number): Promise<RisPage>;
}

export interface NodeTally {
  name: string;
  return_code: string;
  /** Records this node sent in this answer (duplicates of other nodes' included). */
  records_read: number;
  /** Records the node says it holds for the criteria (from StateInfo), when it says. */
  records_found?: number;
}

export interface PagingOutcome {
  complete: boolean;
  /** Where to continue; '' when complete. */
  stateInfo: string;
  requests: number;
  shape?: AnswerShape;
  stoppedBecause?: StopReason;
  retryAfterSeconds?: number;
  error?: { code: string; message: string };
  nodes: NodeTally[];
}

export async function readPages(plan: PagingPlan): Promise<PagingOutcome> {
  const nodes = new Map<string, NodeTally>();
  let stateInfo = plan.stateInfo;
  let requests = 0;
  let shape: AnswerShape | undefined;
  const outcome = (extra: Partial<PagingOutcome>): PagingOutcome => ({
    complete: false,
    stateInfo,
    requests,
    ...(shape ? { shape } : {}),
    nodes: [...nodes.values()],
    ...extra,
  });
  for (;;) {
    if (requests >= plan.maxRequests) return outcome({ stoppedBecause: 'max_requests' });
    const room = plan.maxDevices - plan.merger.size;
    if (room <= 0) return outcome({ stoppedBecause: 'max_devices' });
    const ask = Math.min(plan.perRequest, room);
    let page: RisPage;
    try {
      page = await plan.send(stateInfo, ask);
    } catch (err) {
      // Nothing read yet: the caller gets the error itself. Pages already read are worth returning.
      if (requests === 0) throw err;
      if (err instanceof RisRateLimitError)
        return outcome({ stoppedBecause: 'rate_limit', retryAfterSeconds: err.retryAfterSeconds ?? 60 });
      if (isKernelError(err) && err.expose)
        return outcome({ stoppedBecause: 'error', error: { code: err.code, message: err.message } });
      throw err;
    }
    requests++;
    shape = page.shape;
    for (const n of page.nodes) {
      const tally = nodes.get(n.name) ?? { name: n.name, return_code: n.returnCode, records_read: 0 };
      tally.records_read += n.devices.length;
      tally.return_code = n.returnCode;
      nodes.set(n.name, tally);
      for (const d of n.devices) plan.merger.add(d);
    }
    for (const p of readProgress(page.stateInfo)) {
      const tally = nodes.get(p.node);
      if (tally && p.found !== undefined) tally.records_found = p.found;
    }
    if (pagingDone(page.stateInfo, page.records, ask)) {
      stateInfo = '';
      return outcome({ complete: true });
    }
    if (page.stateInfo.trim() === '') {
      return outcome({
        stoppedBecause: 'error',
        error: {
          code: 'RISError',
          message: 'the node returned a full page without a StateInfo to continue from',
        },
      });
    }
    stateInfo = page.stateInfo;
  }
}
