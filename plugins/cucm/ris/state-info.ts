// StateInfo is the node's paging cursor: an XML fragment, one Node element per CallManager, sent back
// verbatim to continue. Its TotalItemsFound / TotalItemsReturned say whether anything is left.

export interface NodeProgress {
  node: string;
  found?: number;
  returned?: number;
}

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g))
    out.set(m[1] as string, m[2] as string);
  return out;
}

export function readProgress(stateInfo: string): NodeProgress[] {
  const nodes: NodeProgress[] = [];
  for (const m of stateInfo.matchAll(/<(?:\w+:)?Node\b([^>]*)>/g)) {
    const a = attributes(m[1] as string);
    const found = Number(a.get('TotalItemsFound'));
    const returned = Number(a.get('TotalItemsReturned'));
    nodes.push({
      node: a.get('Name') ?? '',
      ...(a.has('TotalItemsFound') && Number.isFinite(found) ? { found } : {}),
      ...(a.has('TotalItemsReturned') && Number.isFinite(returned) ? { returned } : {}),
    });
  }
  return nodes;
}

/** The smallest per-answer cap of any release: a shorter page means the node had nothing more. */
const SMALLEST_NODE_CAP = 1000;

/**
 * Whether a query is finished after a page of `records` records asked with MaxReturnedDevices
 * `requested`. The node's totals decide when every node carries them; without them a short page does
 * (one shorter than what was asked and than any node's cap). An empty page always ends: asking again
 * with the same StateInfo would get the same nothing.
 */
export function pagingDone(stateInfo: string, records: number, requested: number): boolean {
  if (records === 0) return true;
  const nodes = readProgress(stateInfo);
  if (nodes.length > 0 && nodes.every((n) => n.found !== undefined && n.returned !== undefined)) {
    return nodes.every((n) => (n.returned as number) >= (n.found as number));
  }
  return records < Math.min(requested, SMALLEST_NODE_CAP);
}
