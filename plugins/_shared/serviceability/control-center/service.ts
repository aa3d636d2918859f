// Service status and control through ControlCenterServices, one node per request (the API acts on the
// node it runs on only), over the shared serviceability client: its per-node budget, retries (reads
// only: a control request is sent once), stored credential and certificate trust per node.
import type { ClientVault } from '../../../../kernel/sdk/index.ts';
import { NotFoundError, ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import { splitAddress } from '../../node/endpoint.ts';
import { eachNode, type NodeFailure } from '../../node/node-failures.ts';
import type { XmlNode } from '../../node/xml-text.ts';
import type { ServiceabilityClient, SoapCall } from '../client.ts';
import type { ControlType } from './api.ts';
import {
  CONTROL_CENTER_API,
  CONTROL_CENTER_ARRAYS,
  controlServicesFields,
  serviceStatusFields,
  staticServiceListFields,
} from './api.ts';
import type { ServiceInfo, ServiceInformation, ServiceSpecification } from './answers.ts';
import { readServiceInformation, readStaticServiceList } from './answers.ts';

/** Reason code of a service the node does not know ("No such service"; see lab/vos/services.ts REASON). */
const NO_SUCH_SERVICE = -1010;
/** Reason code of success in Control Center answers. */
const SUCCESS = -1;

export interface NodeStatus {
  node: string;
  services: ServiceInfo[];
  /** Names asked for that the node does not know. */
  unknown: string[];
  specifications?: ServiceSpecification[];
  rate_limit: { per_minute: number; remaining: number };
}

const arrays = [...CONTROL_CENTER_ARRAYS];

/** soapGetServiceStatus for `services` (every service when empty), read. */
async function readStatus(
  call: (c: SoapCall) => Promise<XmlNode>,
  services: readonly string[],
  host: string,
  signal?: AbortSignal,
): Promise<ServiceInformation> {
  return readServiceInformation(
    await call({
      api: CONTROL_CENTER_API,
      operation: 'soapGetServiceStatus',
      fields: serviceStatusFields(services),
      arrays,
      ...(signal ? { signal } : {}),
    }),
    'soapGetServiceStatusReturn',
    host,
  );
}

function unknownOf(info: ServiceInformation): { known: ServiceInfo[]; unknown: string[] } {
  const unknown = info.services.filter((s) => s.status === 'Unknown' && s.reason_code === NO_SUCH_SERVICE);
  return {
    known: info.services.filter((s) => !unknown.includes(s)),
    unknown: unknown.map((s) => s.name),
  };
}

/** soapGetServiceStatus (and soapGetStaticServiceList when `withSpecifications`) on one node. */
export async function nodeStatus(
  client: ServiceabilityClient,
  vault: ClientVault,
  host: string,
  services: readonly string[],
  withSpecifications: boolean,
  signal?: AbortSignal,
): Promise<NodeStatus> {
  const endpoint = await client.endpoint(vault, host);
  return client.session(endpoint, async (call) => {
    const status = await readStatus(call, services, host, signal);
    const specifications = withSpecifications
      ? readStaticServiceList(
          await call({
            api: CONTROL_CENTER_API,
            operation: 'soapGetStaticServiceList',
            fields: staticServiceListFields(),
            arrays,
            ...(signal ? { signal } : {}),
          }),
          host,
        )
      : undefined;
    const { known, unknown } = unknownOf(status);
    return {
      node: host,
      services: known,
      unknown,
      ...(specifications ? { specifications } : {}),
      rate_limit: await client.budget(CONTROL_CENTER_API, endpoint),
    };
  });
}

/**
 * Status of several nodes: each answers for itself; a node that fails (unreachable, no credential,
 * refused) is reported with its coded error while the others still answer. Anything that is not a coded
 * error is a defect and propagates.
 */
export function clusterStatus(
  client: ServiceabilityClient,
  vault: ClientVault,
  hosts: readonly string[],
  services: readonly string[],
  withSpecifications: boolean,
  signal?: AbortSignal,
): Promise<{ answered: NodeStatus[]; failed: NodeFailure[] }> {
  return eachNode(
    hosts,
    (host) => nodeStatus(client, vault, host, services, withSpecifications, signal),
    signal,
  );
}

export interface ControlResult {
  node: string;
  action: ControlType;
  services: (ServiceInfo & { changed: boolean })[];
  rate_limit: { per_minute: number; remaining: number };
}

/**
 * Start, stop or restart services on one node. The names are checked first with a status request, so
 * an unknown name is refused (NOT_FOUND) before anything changes; then one soapDoControlServices, sent
 * once. A node that did nothing for any of them (a network service, one not activated, already in that
 * state) is a ServiceabilityError with its reasons.
 */
export async function controlServices(
  client: ServiceabilityClient,
  vault: ClientVault,
  host: string,
  action: ControlType,
  services: readonly string[],
  signal?: AbortSignal,
  /**
   * `namesChecked`: the caller has just read these services' status (the change gate's preview), so
   * the name check is not repeated: each read takes one of the node's 15 Control Center requests a minute.
   */
  o: { namesChecked?: boolean } = {},
): Promise<ControlResult> {
  const endpoint = await client.endpoint(vault, host);
  const nodeName = splitAddress(host)?.host ?? host;
  const opt = signal ? { signal } : {};
  return client.session(endpoint, async (call) => {
    if (o.namesChecked !== true) {
      const before = await readStatus(call, services, host, signal);
      const { unknown } = unknownOf(before);
      const missing = services.filter(
        (s) =>
          unknown.some((u) => u.toLowerCase() === s.toLowerCase()) ||
          !before.services.some((b) => b.name.toLowerCase() === s.toLowerCase()),
      );
      if (missing.length > 0)
        throw new NotFoundError(`${host} has no service named ${missing.map((m) => `"${m}"`).join(', ')}`);
    }
    const after = readServiceInformation(
      await call({
        api: CONTROL_CENTER_API,
        operation: 'soapDoControlServices',
        fields: controlServicesFields(nodeName, action, services),
        arrays,
        idempotent: false,
        ...opt,
      }),
      'soapDoControlServicesReturn',
      host,
    );
    const results = after.services.map((s) => ({ ...s, changed: s.reason_code === SUCCESS }));
    if (results.length > 0 && !results.some((r) => r.changed))
      throw new ServiceabilityError(
        `${host} did not ${action.toLowerCase()} ${results
          .map((r) => `${r.name} (${r.reason ?? `reason code ${String(r.reason_code)}`})`)
          .join(', ')}`,
      );
    if (results.length === 0)
      throw new ServiceabilityError(
        `${host} answered soapDoControlServices without a service (${after.reason ?? `return code ${after.return_code ?? 'none'}`})`,
      );
    return {
      node: host,
      action,
      services: results,
      rate_limit: await client.budget(CONTROL_CENTER_API, endpoint),
    };
  });
}
