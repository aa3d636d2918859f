// RisPort70 on the publisher's Tomcat: a serviceability SOAP service (lab/serviceability/service.ts does
// the WSDL, login, SOAP reading and rate limit) whose operations page the cluster's registrations.
import type { Database } from '../../informix/database.ts';
import type { LabLog } from '../../state/log.ts';
import { childText } from '../../xml/parse.ts';
import type { XmlObject } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import type { SoapServiceDef } from '../../serviceability/service.ts';
import { answerEnvelope, soapServiceEndpoint } from '../../serviceability/service.ts';
import { authenticateAppUser } from '../db/credentials.ts';
import { ENTERPRISE_NODE } from '../db/schema.ts';
import { RIS_RATE_PARAMETER } from '../topology.ts';
import type { RisState } from './registrations.ts';
import { matchingCtiItems, readCtiCriteria } from './cti.ts';
import { cmDevice, matchingEntries, readCriteria } from './select.ts';
import type { NodeProgress } from './state-info.ts';
import { readStateInfo, writeStateInfo } from './state-info.ts';
import { RIS_NAMESPACE, risWsdl } from './wsdl.ts';

export const RIS_PATH = '/realtimeservice2/services/RISService70';
/** The role RisPort authorises against (a role; the standard group that carries it has the same name). */
export const RIS_GROUP = 'Standard RealtimeAndTraceCollection';

export interface RisOptions {
  node: string;
  db: Database;
  ris: RisState;
  log: LabLog;
  maxDevicesPerAnswer: number;
  shape: 'cucm15' | 'legacy';
  fallbackRateLimit: number;
  publicAddress: () => string;
}

/** The per-minute limit: the enterprise parameter, so an AXL or SQL update of it takes effect at once. */
export function risRateLimit(db: Database, fallback: number): number {
  const node = db.table('processnode').findBy('name', ENTERPRISE_NODE);
  const row = db
    .table('processconfig')
    .rows.find((r) => r.fkprocessnode === node?.pkid && r.paramname === RIS_RATE_PARAMETER);
  const value = Number(row?.paramvalue);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export function risService(o: RisSource): SoapServiceDef {
  // selectCmDeviceExt answers as selectCmDevice does (RISService70.wsdl: one response for both).
  const select = ({ body }: { body: XmlObject }): string =>
    answerEnvelope(RIS_NAMESPACE, 'selectCmDevice', devices(o, body));
  return {
    name: 'RISService70',
    path: RIS_PATH,
    namespace: RIS_NAMESPACE,
    wsdl: (location) => risWsdl(location, o.shape),
    operations: {
      selectCmDevice: select,
      selectCmDeviceExt: select,
      selectCtiItem: ({ body }) => answerEnvelope(RIS_NAMESPACE, 'selectCtiItem', ctiItems(o, body)),
    },
    perMinute: () => risRateLimit(o.db, o.fallbackRateLimit),
    // One window for the cluster's RIS state, which tests reset for a fresh minute.
    window: o.ris.window,
    rateFault: (limit) =>
      `AxisFault: Exceeded allowed rate for Reatime information. Current allowed rate for realtime information is ${limit} requests per minute.`,
    realm: 'Cisco RIS',
    // What the lab log and its readers have always seen of RisPort70, and Axis dispatching on the body.
    logAs: { service: 'ris', qualified: false },
    anySoapAction: true,
  };
}

export function risEndpoint(o: RisOptions): ReturnType<typeof soapServiceEndpoint> {
  return soapServiceEndpoint(risService(o), {
    node: o.node,
    log: o.log,
    authenticate: (user, password) => authenticateAppUser(o.db, user, password, RIS_GROUP) !== undefined,
    publicAddress: o.publicAddress,
  });
}

/** What RisPort70's answers read: the cluster's database and RIS state, and the node's answer limits. */
type RisSource = Omit<RisOptions, 'log' | 'publicAddress'>;

/** The element names of one kind of answer (RISService70.wsdl). */
interface AnswerNames {
  /** The CUCM 15 shape's wrapper of result and StateInfo. */
  wrapper: string;
  result: string;
  total: string;
  nodes: string;
  items: string;
}

const DEVICES: AnswerNames = {
  wrapper: 'selectCmDeviceReturn',
  result: 'SelectCmDeviceResult',
  total: 'TotalDevicesFound',
  nodes: 'CmNodes',
  items: 'CmDevices',
};
const CTI_ITEMS: AnswerNames = {
  wrapper: 'selectCtiItemReturn',
  result: 'SelectCtiItemResult',
  total: 'TotalItemsFound',
  nodes: 'CtiNodes',
  items: 'CtiItems',
};

/**
 * One page of a cluster-wide answer: up to `max` items over the nodes in order, each node resuming where
 * the caller's StateInfo left it, with the StateInfo of the next page.
 */
function page<T>(
  o: RisSource,
  body: XmlObject,
  names: AnswerNames,
  max: number,
  found: Iterable<[string, T[]]>,
  item: (found: T) => XmlOutObject,
): XmlOutObject {
  const offsets = readStateInfo(childText(body, 'StateInfo'));
  let room = max;
  let total = 0;
  const nodes: XmlOutObject[] = [];
  const progress: NodeProgress[] = [];
  for (const [node, all] of found) {
    const start = Math.min(offsets.get(node.toLowerCase()) ?? 0, all.length);
    const slice = all.slice(start, start + room);
    room -= slice.length;
    total += slice.length;
    progress.push({ node, next: start + slice.length, found: all.length, returned: start + slice.length });
    nodes.push({
      ReturnCode: slice.length > 0 ? 'Ok' : 'NotFound',
      Name: node,
      NoChange: false,
      [names.items]: slice.length > 0 ? { item: slice.map(item) } : null,
    });
  }
  const result = { [names.total]: total, [names.nodes]: { item: nodes } };
  const stateInfo = writeStateInfo(o.ris.startedAt, progress);
  return o.shape === 'cucm15'
    ? { [names.wrapper]: { [names.result]: result, StateInfo: stateInfo } }
    : { [names.result]: result, StateInfo: stateInfo };
}

function devices(o: RisSource, body: XmlObject): XmlOutObject {
  const criteria = readCriteria(body, o.maxDevicesPerAnswer);
  return page(o, body, DEVICES, criteria.max, matchingEntries(o.db, o.ris, criteria), cmDevice);
}

/** selectCtiItem: CtiNodes with their CtiItems, paged with StateInfo like selectCmDevice. */
function ctiItems(o: RisSource, body: XmlObject): XmlOutObject {
  const criteria = readCtiCriteria(body, o.maxDevicesPerAnswer);
  return page(o, body, CTI_ITEMS, criteria.max, matchingCtiItems(o.db, o.ris, criteria), (x) => x);
}
