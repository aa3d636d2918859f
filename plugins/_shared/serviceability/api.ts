// What a serviceability SOAP API is to this client: where it lives on a VOS node, its namespace, its own
// per-node request budget and how its rate fault reads. One constant per API (PERFMON_API in
// perfmon/constants.ts...); the client (client.ts) does the rest the same way for all of them.
import type { Product } from '../../../kernel/sdk/index.ts';
import type { HttpKind } from '../node/endpoint.ts';

export interface ServiceabilityApi {
  /** The service's name on the node, as its WSDL's <wsdl:service> names it: `PerfmonService`. */
  name: string;
  /** Its path on the node's HTTPS port (8443): `/perfmonservice2/services/PerfmonService`. */
  path: string;
  /** The namespace of its operations' elements. */
  namespace: string;
  /**
   * Requests per minute the node accepts for this API, from every client together (its rate-control
   * enterprise parameter). The limiter keeps this server under it per node; a node that announces a
   * lower figure in its rate fault is believed.
   */
  perMinute: number;
  /**
   * Recognises the node's rate fault in a faultstring; returns the limit it announces (or null when it
   * names none), undefined for any other fault.
   */
  rateFault?: (faultstring: string) => number | null | undefined;
}

/**
 * The rate fault the serviceability APIs answer beyond a node's budget: a faultstring saying "Exceeded
 * allowed rate", naming the limit as "<n> requests per minute" when it does (PerfMon's fault, as a node
 * answers it, reads so: perfmon/api.ts; the other APIs' wording is assumed the same). The limit named, null
 * when none is, undefined for any other fault.
 */
export function exceededAllowedRate(faultstring: string): number | null | undefined {
  if (!/Exceeded allowed rate/i.test(faultstring)) return undefined;
  const limit = /(\d{1,4})\s+requests? per minute/i.exec(faultstring);
  return limit ? Number(limit[1]) : null;
}

/**
 * The login each product's serviceability APIs take: the platform's application user, which is the
 * product's stored AXL credential on CUCM and IM&P and the stored CUPI administrator on Unity Connection
 * (the same OS-level administrator account answers every VOS SOAP service there).
 */
export const SERVICEABILITY_LOGIN: Record<Product, HttpKind> = { cucm: 'axl', imp: 'axl', cuc: 'cupi' };
