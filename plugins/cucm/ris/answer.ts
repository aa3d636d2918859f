// Reads a selectCmDevice(Ext) answer: either shape (CUCM 15 wraps the result in selectCmDeviceReturn,
// older releases do not), SOAP faults (the rate-limit AxisFault apart), HTTP failures.
import { RISError } from '../../../kernel/sdk/index.ts';
import type { HttpAnswer } from '../../_shared/axl/transport.ts';
import type { RisDevice } from './devices.ts';
import { normaliseDevice } from './devices.ts';
import { RisNodeRateFault } from './errors.ts';
import type { XmlNode } from './xml-text.ts';
import { child, isNode, list, parseUntrusted, text } from './xml-text.ts';

export type AnswerShape = 'cucm15' | 'legacy';

export interface RisNodeAnswer {
  name: string;
  returnCode: string;
  devices: RisDevice[];
}

export interface RisPage {
  shape: AnswerShape;
  /** Per node: ReturnCode and records, for the paging loop. */
  nodeRecords: { name: string; returnCode: string; records: number }[];
  /** TotalDevicesFound: the records in this answer, all nodes together. */
  totalFound: number;
  stateInfo: string;
  nodes: RisNodeAnswer[];
  /** Records in this page, every node's together (duplicates included). */
  records: number;
}

const ARRAYS = new Set(['item']);

/** "Exceeded allowed rate for Reatime information" (sic: Cisco's typo; the fixed spelling is accepted too). */
const RATE_FAULT = /Exceeded allowed rate for Real?time information/i;

export function readSelectAnswer(answer: HttpAnswer, host: string): RisPage {
  return readResult(soapBodyOf(answer, host), host);
}

/**
 * The SOAP Body of a RisPort70 answer to any operation, after the checks every answer gets: the login
 * refused, no SOAP at all, a fault (the node's rate-limit AxisFault as RisNodeRateFault), another status.
 */
export function soapBodyOf(answer: HttpAnswer, host: string): XmlNode {
  const body = answer.body.toString('utf8');
  if (answer.status === 401 || answer.status === 403) {
    throw new RISError(
      `authentication to RisPort70 on ${host} failed (HTTP ${answer.status}): check the stored AXL credential and that the user has the Standard RealtimeAndTraceCollection role`,
    );
  }
  const looksSoap = /<(\w+:)?Envelope[\s>]/.test(body);
  if (!looksSoap) {
    throw new RISError(
      `RisPort70 on ${host} answered HTTP ${answer.status} without a SOAP envelope: ${snippet(body)}`,
    );
  }
  const doc = parseUntrusted(body, `the RisPort70 answer of ${host}`, { arrays: ARRAYS });
  const soapBody = child(child(doc, 'Envelope'), 'Body');
  if (!soapBody) throw new RISError(`the RisPort70 answer of ${host} has no SOAP Body`);
  const fault = child(soapBody, 'Fault');
  if (fault) throw faultError(fault, host);
  if (answer.status !== 200) throw new RISError(`RisPort70 on ${host} answered HTTP ${answer.status}`);
  return soapBody;
}

function faultError(fault: XmlNode, host: string): RISError {
  const message = (text(fault, 'faultstring') ?? 'SOAP fault without a message').trim();
  if (RATE_FAULT.test(message)) {
    const limit = /is\s+(\d{1,4})\s+requests? per minute/i.exec(message);
    return new RisNodeRateFault(`RisPort70 on ${host}: ${message}`, limit ? Number(limit[1]) : undefined);
  }
  return new RISError(`RisPort70 on ${host} answered a fault: ${snippet(message)}`);
}

function readResult(soapBody: XmlNode, host: string): RisPage {
  // The one element of the Body: selectCmDeviceResponse (or an ...ExtResponse on some releases).
  const response = Object.entries(soapBody).find(([k, v]) => k.endsWith('Response') && isNode(v))?.[1];
  if (!isNode(response)) throw new RISError(`the RisPort70 answer of ${host} has no response element`);
  const wrapped = child(response, 'selectCmDeviceReturn');
  const holder = wrapped ?? response;
  const result = child(holder, 'SelectCmDeviceResult');
  if (!result) throw new RISError(`the RisPort70 answer of ${host} has no SelectCmDeviceResult`);
  const nodes = list(child(result, 'CmNodes')?.item).map((n): RisNodeAnswer => {
    const name = text(n, 'Name') ?? '';
    return {
      name,
      returnCode: text(n, 'ReturnCode') ?? '',
      devices: list(child(n, 'CmDevices')?.item).map((d) => normaliseDevice(d, name)),
    };
  });
  const total = Number(text(result, 'TotalDevicesFound'));
  const records = nodes.reduce((sum, n) => sum + n.devices.length, 0);
  return {
    shape: wrapped ? 'cucm15' : 'legacy',
    nodeRecords: nodes.map((n) => ({ name: n.name, returnCode: n.returnCode, records: n.devices.length })),
    totalFound: Number.isFinite(total) ? total : records,
    stateInfo: text(holder, 'StateInfo') ?? '',
    nodes,
    records,
  };
}

function snippet(s: string): string {
  return s
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}
