// Reads a query page after page with StateInfo until the nodes have nothing left or a budget is spent
// (requests, devices, the cluster's rate). Stopping early is never silent: the outcome says why and
// carries the StateInfo to continue from.
import { isKernelError } from '../../../kernel/sdk/index.ts';
import type { AnswerShape } from './answer.ts';
import { RisRateLimitError } from './errors.ts';
import { pagingDone, readProgress } from './state-info.ts';

/** What paging needs of one answer, whatever it lists (devices, CTI items). */
export interface PageOf {
  shape: AnswerShape;
  stateInfo: string;
  /** Records in this page, every node's together. */
  records: number;
  /** Per node: its ReturnCode and how many records it sent in this page. */
  nodeRecords: { name: string; returnCode: string; records: number }[];
}

export type StopReason = 'max_requests' | 'max_devices' | 'rate_limit' | 'error';

export interface PagingPlan<P extends PageOf> {
  stateInfo: string;
  maxRequests: number;
  /** Results this answer may hold; each request asks for no more than the room left. */
  maxDevices: number;
  /** MaxReturnedDevices (MaxReturnedItems) of each request. */
  perRequest: number;
  /** Results held so far (unique devices, CTI items). */
  size(): number;
  /** Takes one page's results. */
  take(page: P): void;
  send(stateInfo: string, maxReturned: number): Promise<P>;
}

export interface NodeTally {
  name: string;
  /**
   * The node's ReturnCode for the whole query, not its last page: Ok when any page found devices on
   * it, else the error a page reported (InternalError, NodeNotResponding, ...), else NotFound.
   */
  return_code: string;
  /** Every ReturnCode the node gave, in order, when its pages disagreed (e.g. Ok, then NotFound). */
  return_codes?: string[];
  /** Records this node sent in this answer (duplicates of other nodes' included). */
  records_read: number;
  /** Records the node says it holds for the criteria (from StateInfo), when it says. */
  records_found?: number;
}

/** A node whose TotalItemsFound changed while the query paged. */
export interface ChangedNode {
  node: string;
  from: number;
  to: number;
}

export interface PagingOutcome {
  complete: boolean;
  /** Nodes whose set of records changed between pages: the answer cannot say none was skipped. */
  changed?: ChangedNode[];
  /** Where to continue; '' when complete. */
  stateInfo: string;
  requests: number;
  shape?: AnswerShape;
  stoppedBecause?: StopReason;
  retryAfterSeconds?: number;
  error?: { code: string; message: string };
  nodes: NodeTally[];
}

/** Folds one page's ReturnCode into the node's code for the whole query (RisReturnCode in the WSDL). */
function noteReturnCode(tally: NodeTally, code: string, hadDevices: boolean): void {
  const codes = tally.return_codes ?? [tally.return_code];
  if (!codes.includes(code)) codes.push(code);
  const failed = codes.find((c) => c !== 'Ok' && c !== 'NotFound' && c !== '');
  const ok = hadDevices || tally.records_read > 0 || codes.includes('Ok');
  tally.return_code = ok ? 'Ok' : (failed ?? (codes.includes('NotFound') ? 'NotFound' : code));
  if (codes.length > 1) tally.return_codes = codes;
}

export async function readPages<P extends PageOf>(plan: PagingPlan<P>): Promise<PagingOutcome> {
  const nodes = new Map<string, NodeTally>();
  let stateInfo = plan.stateInfo;
  let requests = 0;
  let shape: AnswerShape | undefined;
  // A node's TotalItemsFound (StateInfo) is the size of what it pages through: if it changes between
  // two pages (this call's, or the cursor's last one), devices came or went and the node's offsets moved,
  // so a device may have been skipped. The answer then says so instead of claiming completeness.
  const found = new Map<string, number>();
  for (const p of readProgress(plan.stateInfo)) if (p.found !== undefined) found.set(p.node, p.found);
  const changed: ChangedNode[] = [];
  const outcome = (extra: Partial<PagingOutcome>): PagingOutcome => ({
    complete: false,
    stateInfo,
    requests,
    ...(shape ? { shape } : {}),
    nodes: [...nodes.values()],
    ...(changed.length > 0 ? { changed } : {}),
    ...extra,
  });
  for (;;) {
    if (requests >= plan.maxRequests) return outcome({ stoppedBecause: 'max_requests' });
    const room = plan.maxDevices - plan.size();
    if (room <= 0) return outcome({ stoppedBecause: 'max_devices' });
    const ask = Math.min(plan.perRequest, room);
    let page: P;
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
    for (const n of page.nodeRecords) {
      const tally = nodes.get(n.name) ?? { name: n.name, return_code: n.returnCode, records_read: 0 };
      tally.records_read += n.records;
      noteReturnCode(tally, n.returnCode, n.records > 0);
      nodes.set(n.name, tally);
    }
    plan.take(page);
    for (const p of readProgress(page.stateInfo)) {
      const tally = nodes.get(p.node);
      if (tally && p.found !== undefined) tally.records_found = p.found;
      if (p.found === undefined) continue;
      const was = found.get(p.node);
      if (was !== undefined && was !== p.found && !changed.some((c) => c.node === p.node))
        changed.push({ node: p.node, from: was, to: p.found });
      found.set(p.node, p.found);
    }
    if (changed.length > 0) {
      // Reading on would only hide it: the answer ends here, without StateInfo to continue from.
      stateInfo = '';
      return outcome({ complete: false });
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
