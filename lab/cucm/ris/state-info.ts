import { escapeXml } from '../../xml/write.ts';

/**
 * StateInfo in the form RisPort sends (one `Node` element per CallManager). The lab's `StateId` is how far
 * into that node's records the client has read, so passing StateInfo back continues where the previous
 * answer stopped. Anything unreadable starts from the beginning, as a fresh query would.
 */
export function readStateInfo(text: string | undefined): Map<string, number> {
  const offsets = new Map<string, number>();
  if (!text) return offsets;
  for (const m of text.matchAll(/<Node\s+Name="([^"]{1,255})"[^>]*?\sStateId="(\d{1,9})"/g)) {
    offsets.set((m[1] as string).toLowerCase(), Number(m[2]));
  }
  return offsets;
}

export interface NodeProgress {
  node: string;
  next: number;
  found: number;
  returned: number;
}

export function writeStateInfo(startedAt: number, progress: NodeProgress[]): string {
  const nodes = progress
    .map(
      (p) =>
        `<Node Name="${escapeXml(p.node)}" SubsystemStartTime="${startedAt}" StateId="${p.next}" TotalItemsFound="${p.found}" TotalItemsReturned="${p.returned}"/>`,
    )
    .join('');
  return `<StateInfo>${nodes}</StateInfo>`;
}
