// The serviceability tools every VOS product has (PerfMon, Control Center, Log Collection, trace levels,
// the DRF and certificates read over the CLI), in one list each product plugin spreads into its own: a
// tool added here reaches CUCM, IM and Presence and Unity Connection alike, none can be left out of one.
// The tools live one per file beside this one; CUCM adds its CDR tools itself (CDR on Demand runs on the
// CDR Repository node only).
import type { Product } from '../../../kernel/sdk/index.ts';
import { certListTool } from './cert-list.ts';
import { drfStatusTool } from './drf-status.ts';
import { logCollectTool } from './log-collect.ts';
import { logListTool } from './log-list.ts';
import { perfmonListCountersTool } from './perfmon-list-counters.ts';
import { perfmonQueryTool } from './perfmon-query.ts';
import { serviceControlTool } from './service-control.ts';
import { serviceStatusTool } from './service-status.ts';
import { traceLevelTool } from './trace-level.ts';

/** `product`'s serviceability tools; `trustTool` is its `<product>_os_trust_fingerprint` (the CLI ones name it). */
export function serviceabilityTools(product: Product, trustTool: string) {
  return [
    drfStatusTool(product, trustTool),
    traceLevelTool(product, trustTool),
    certListTool(product, trustTool),
    perfmonListCountersTool(product),
    perfmonQueryTool(product),
    serviceStatusTool(product),
    logListTool(product),
    logCollectTool(product),
    serviceControlTool(product),
  ];
}
