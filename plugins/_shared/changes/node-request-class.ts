// The class of one request as it leaves a shared transport (HTTPS exchange, VOS shell), whatever tool
// sent it: the rows of classify.ts for AXL, CUPI, the CLI, plus those of the services that only the
// transports see (RIS, the serviceability SOAP APIs, phones). The kernel refuses anything but `read` in a
// call that uses a read-only credential, so this is the one place an unknown request must not be read.
import type { ChangeClass, NodeService } from '../../../kernel/sdk/index.ts';
import type { ChangeRule } from './change-rule.ts';
import { classifyAxl, classifyCli, classifyCupi } from './classify.ts';

/** Serviceability SOAP operations that change nothing on the node (every other one is destructive). */
// Named here, not imported from the API modules: those reach the transport (types), which imports this.
export const SERVICEABILITY_READS: ReadonlySet<string> = new Set([
  'soapGetServiceStatus',
  'soapGetStaticServiceList',
  'perfmonListCounter',
  'perfmonListInstance',
  'perfmonQueryCounterDescription',
  'perfmonCollectCounterData',
  // A PerfMon session is the node's bookkeeping of what to sample for this caller, no configuration.
  'perfmonOpenSession',
  'perfmonAddCounter',
  'perfmonCollectSessionData',
  'perfmonCloseSession',
  'listNodeServiceLogs',
  'selectLogFiles',
  'GetOneFile',
  'get_file_list',
  'get_file',
]);

export const REQUEST_RULES = {
  get: { class: 'read', why: 'an HTTP GET: a WSDL, a download, a CUPI or phone page read' },
  risSelect: { class: 'read', why: 'RisPort70 select* operations report registration state only' },
  serviceabilityRead: { class: 'read', why: 'a status, counter, log listing or file read' },
  unknown: {
    class: 'destructive',
    why: 'a request the table does not name (a Control Center action, a phone key press...): the worst case',
  },
} as const satisfies Record<string, ChangeRule>;

/** What a transport knows of a request when it leaves. */
export interface LeavingRequest {
  service: NodeService;
  /** The SOAP operation (`getPhone`, `ControlCenterServices.soapDoControlServices`) or CLI command. */
  operation?: string | undefined;
  method?: string | undefined;
  /** The HTTP path, query included or not. */
  path?: string | undefined;
}

/** The request's class; anything not named is destructive. */
export function classifyNodeRequest(r: LeavingRequest): ChangeClass {
  const method = (r.method ?? '').toUpperCase();
  const operation = r.operation ?? '';
  if (r.service === 'ssh') return classifyCli(operation).class;
  if (method === 'GET') return REQUEST_RULES.get.class;
  // The SOAP operation, without the `Api.` prefix the serviceability client reports it with.
  const soap = operation.slice(operation.lastIndexOf('.') + 1);
  switch (r.service) {
    case 'axl':
      return soap === '' ? REQUEST_RULES.unknown.class : classifyAxl(soap).class;
    case 'cupi':
      return classifyCupi(method, (r.path ?? '').split('?')[0] ?? '').class;
    case 'ris':
      return /^select[A-Z]/.test(soap) ? REQUEST_RULES.risSelect.class : REQUEST_RULES.unknown.class;
    case 'serviceability':
      return SERVICEABILITY_READS.has(soap)
        ? REQUEST_RULES.serviceabilityRead.class
        : REQUEST_RULES.unknown.class;
    default:
      return REQUEST_RULES.unknown.class;
  }
}
