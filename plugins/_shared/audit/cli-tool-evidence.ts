// The audits' evidence from the CLI-parsed tools, shared by the three products: the backup history as
// `<product>_drf_status` parses it, and the node's own certificates as `<product>_cert_list` lists and
// details them. One parser each (plugins/_shared/vos/), whichever reads the node: the tool or a check.
import type { Product } from '../../../kernel/sdk/index.ts';
import { CERT_LIST_OWN_COMMAND, certOwnCommand } from '../vos/cert-output.ts';
import { DRF_HISTORY_COMMAND, DRF_SCHEDULE_COMMAND, DRF_STATUS_COMMAND } from '../vos/drf-output.ts';
import type { EvidenceCall, EvidenceResult } from './checklist.ts';

export function drfStatusEvidence(product: Product, id: string): EvidenceCall {
  return {
    id,
    tool: `${product}_drf_status`,
    args: { host: '{host}' },
    purpose:
      'the Disaster Recovery System backup history, parsed: each run, when it started and whether it succeeded',
  };
}

/**
 * The CLI commands a CLI-parsed tool's evidence call runs on the node ([] for any other call): a check
 * using one cites a source for each (the tools run them in this order).
 */
export function cliToolCommands(e: EvidenceCall): string[] {
  if (e.tool.endsWith('_drf_status')) return [DRF_HISTORY_COMMAND, DRF_STATUS_COMMAND, DRF_SCHEDULE_COMMAND];
  if (e.tool.endsWith('_cert_list')) return [CERT_LIST_OWN_COMMAND, certOwnCommand('<unit>/<file>.pem')];
  return [];
}

export function certListEvidence(product: Product, id: string): EvidenceCall {
  return {
    id,
    tool: `${product}_cert_list`,
    args: { host: '{host}' },
    purpose:
      "the node's own certificates, parsed: who signed each (its list description) and when it expires",
  };
}

interface OwnCertificate {
  name: string;
  description: string;
  not_after: string | null;
}

/** The own certificates of the node a `_cert_list` call read ([] when it failed). */
export function ownCertificates(r: EvidenceResult | undefined): OwnCertificate[] {
  if (!r?.ok || !Array.isArray(r.data.nodes)) return [];
  const node = (r.data.nodes as { own?: unknown }[])[0];
  return Array.isArray(node?.own) ? (node.own as OwnCertificate[]) : [];
}

/** `show cert list own` as the node printed it, one `<name>: <description>` line per certificate. */
export function certListText(r: EvidenceResult | undefined): string {
  return ownCertificates(r)
    .map((c) => `${c.name}: ${c.description}`)
    .join('\n');
}

/** When a listed certificate expires, as `show cert own <name>` said; undefined when unread. */
export function certExpiry(r: EvidenceResult | undefined, name: string): Date | undefined {
  const c = ownCertificates(r).find((x) => x.name.toLowerCase() === name.toLowerCase());
  return c?.not_after ? new Date(c.not_after) : undefined;
}
