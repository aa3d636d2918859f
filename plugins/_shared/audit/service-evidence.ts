// The audits' service checks read a node's service states through Control Center
// (`<product>_service_status`, ControlCenterServices soapGetServiceStatus): Cisco documents that API,
// its operation and the states it answers (Started, Stopped... with a reason such as "Service Not
// Activated"), where `utils service list` prints lines only other products' guides show. It needs the
// product's AXL credential (CUPI on Unity Connection), which the audits need anyway; a call that fails
// leaves the service checks not assessed, never passed.
import type { Product } from '../../../kernel/sdk/index.ts';
import type { EvidenceCall, EvidenceResult, Reference } from './checklist.ts';

/** The evidence call: every service of the audited node, in one request. */
export function serviceStatusEvidence(product: Product, id = 'services'): EvidenceCall {
  return {
    id,
    tool: `${product}_service_status`,
    args: { host: '{host}' },
    purpose:
      "every service of the node with its state and the node's reason (Control Center, ControlCenterServices soapGetServiceStatus)",
  };
}

/** The Control Center Services API page: the operation, its one-node scope and the states it answers. */
export const CONTROL_CENTER_API: Reference = {
  document: 'Cisco Unified Communications Manager Serviceability XML API: Control Center Services API',
  release: '12.5-15',
  section: 'Control Center Services API (soapGetServiceStatus)',
  url: 'https://developer.cisco.com/docs/sxml/control-center-services-api/',
  confirms: ['soapGetServiceStatus', 'ServiceStatus Started | Stopped', 'ReasonCodeString'],
};

/**
 * The WSDL Cisco ships with its serviceability samples, pinned: the operation, the ServiceStatus
 * enumeration and the ReasonCodeString element this evidence reads.
 */
export const CONTROL_CENTER_WSDL: Reference = {
  document: 'CiscoDevNet/serviceability-python-zeep-samples, schema/ControlCenterServices.wsdl',
  release: 'commit ec7cfeb',
  section: 'soapGetServiceStatus, ServiceInformation, ServiceStatus',
  url: 'https://github.com/CiscoDevNet/serviceability-python-zeep-samples/blob/ec7cfebe6decf9f2172ab248a44480dd57f83d3f/schema/ControlCenterServices.wsdl',
  confirms: [
    'soapGetServiceStatus',
    'ServiceStatus Started | Stopped | Starting | Stopping | Unknown',
    'ReasonCodeString',
  ],
};

export interface ServiceState {
  /** `STARTED`, `STOPPED`, `STARTING`, `STOPPING` or `UNKNOWN`: the API's state in the CLI's words. */
  state: string;
  /** The node's reason for a stopped service ("Service Not Activated"), or null. */
  reason: string | null;
}

/**
 * Service name -> state on the audited node, from a `_service_status` result; undefined when the call
 * failed or answered no node (the checks are then not assessed).
 */
export function serviceStatesOf(r: EvidenceResult | undefined): Map<string, ServiceState> | undefined {
  if (!r?.ok || !Array.isArray(r.data.nodes)) return undefined;
  const node = (r.data.nodes as { services?: unknown }[])[0];
  if (!node || !Array.isArray(node.services)) return undefined;
  const states = new Map<string, ServiceState>();
  for (const s of node.services as { name?: unknown; status?: unknown; reason?: unknown }[]) {
    if (typeof s.name !== 'string' || typeof s.status !== 'string') continue;
    states.set(s.name, {
      state: s.status.toUpperCase(),
      reason: typeof s.reason === 'string' ? s.reason : null,
    });
  }
  return states.size > 0 ? states : undefined;
}

/** How a check quotes a service's state: `Name: STOPPED (Service Not Activated)`, or `Name not listed`. */
export function describeService(states: Map<string, ServiceState>, name: string): string {
  const s = states.get(name);
  if (!s) return `${name} not listed`;
  return `${name}: ${s.state}${s.reason ? ` (${s.reason})` : ''}`;
}

/**
 * Service name -> state (`STARTED`, `STOPPED`...) for the checks: Control Center's answer when it was
 * read, else `utils service list` as `cli` parses it (a caller without the product's AXL/CUPI
 * credential, or a node whose Control Center budget is spent, is still judged from its CLI).
 */
export function serviceStateMap(
  controlCenter: EvidenceResult | undefined,
  cli: () => Map<string, string>,
): Map<string, string> {
  const states = serviceStatesOf(controlCenter);
  return states ? new Map([...states].map(([name, s]) => [name, s.state])) : cli();
}
