// What `<product>_drf_status` and `<product>_cert_list` return for given CLI outputs, built by the tools'
// own answer builders: the audits' unit tests judge the parsed answers a node's outputs would give.
import type { EvidenceResult } from '../../plugins/_shared/audit/checklist.ts';
import { certNodeAnswer } from '../../plugins/_shared/tools/cert-list.ts';
import { drfStatusAnswer } from '../../plugins/_shared/tools/drf-status.ts';

/** A `_drf_status` result whose history command printed `history`. */
export function drfEvidence(history: string, status?: string, schedules?: string): EvidenceResult {
  return { ok: true, data: { host: 'node', ...drfStatusAnswer({ history, status, schedules }), errors: [] } };
}

/** A `_cert_list` result of one node: its `show cert list own` and `show cert own <name>` outputs. */
export function certEvidence(list: string, details: Record<string, string>): EvidenceResult {
  const node = { node: 'node', role: null, credential_host: 'node', reached: true, error: null };
  return {
    ok: true,
    data: {
      host: 'node',
      nodes: [{ ...node, ...certNodeAnswer({ list, details }, Date.now()), errors: [] }],
    },
  };
}
