// The PerfmonService operations this server sends, read into plain values. Element names (Host, Object,
// Counter, SessionHandle, ArrayOfCounter/Counter/Name, the *Return elements, Name/Value/CStatus,
// MultiInstance, ArrayOfCounter/item) are the WSDL's (CiscoDevNet/serviceability-python-zeep-samples,
// schema/PerfmonService.wsdl). Every answer is the node's untrusted XML: names are bounded, numbers
// checked, and lists capped before they reach a tool result.
import { setTimeout as sleep } from 'node:timers/promises';
import type { XmlNode } from '../../node/xml-text.ts';
import { child, list, text } from '../../node/xml-text.ts';
import type { SoapCall } from '../client.ts';
import { permitOperations } from '../client.ts';
import { PERFMON_API, PERFMON_OPS } from './api.ts';

/** Most objects, counters per object, instances or values read from one answer. */
export const MAX_ITEMS = 5000;
const MAX_NAME = 512;

export type Send = (c: SoapCall) => Promise<XmlNode>;

export interface PerfmonObject {
  name: string;
  multiInstance: boolean;
  counters: string[];
}

export interface CounterValue {
  /** The full counter name the node answered. */
  name: string;
  value: number;
  cstatus: number;
}

/** A name type's text: plain, or simple content with attributes (`#text`). */
function nameOf(parent: unknown, element = 'Name'): string {
  return (text(parent, element) ?? '').slice(0, MAX_NAME);
}

function call(
  send: Send,
  operation: string,
  fields: SoapCall['fields'],
  arrays: string[],
  signal?: AbortSignal,
) {
  return send({ api: PERFMON_API, operation, fields: fields ?? {}, arrays, ...(signal ? { signal } : {}) });
}

/** perfmonListCounter: every object of `host` with its counter names. */
export async function listCounters(send: Send, host: string, signal?: AbortSignal): Promise<PerfmonObject[]> {
  const r = await call(
    send,
    PERFMON_OPS.listCounter,
    { Host: host },
    ['perfmonListCounterReturn', 'item'],
    signal,
  );
  return list(r.perfmonListCounterReturn)
    .slice(0, MAX_ITEMS)
    .map((o) => ({
      name: nameOf(o),
      multiInstance: text(o, 'MultiInstance') === 'true',
      counters: list(child(o, 'ArrayOfCounter')?.item)
        .slice(0, MAX_ITEMS)
        .map((c) => nameOf(c))
        .filter((n) => n !== ''),
    }))
    .filter((o) => o.name !== '');
}

/** perfmonListInstance: the current instances of `object` on `host`. */
export async function listInstances(
  send: Send,
  host: string,
  object: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const r = await call(
    send,
    PERFMON_OPS.listInstance,
    { Host: host, Object: object },
    ['perfmonListInstanceReturn'],
    signal,
  );
  return list(r.perfmonListInstanceReturn)
    .slice(0, MAX_ITEMS)
    .map((i) => nameOf(i));
}

/** perfmonQueryCounterDescription of one full counter name. */
export async function describeCounter(send: Send, path: string, signal?: AbortSignal): Promise<string> {
  const r = await call(send, PERFMON_OPS.describe, { Counter: path }, [], signal);
  return (text(r, 'perfmonQueryCounterDescriptionReturn') ?? '').slice(0, 2000);
}

/** A number the node wrote (xsd:long, xsd:unsignedInt); NaN for anything else, an empty element too. */
function numberOf(raw: string | undefined): number {
  return raw !== undefined && /^\s*-?\d{1,19}\s*$/.test(raw) ? Number(raw) : NaN;
}

function values(r: XmlNode, element: string): CounterValue[] {
  return list(r[element])
    .slice(0, MAX_ITEMS)
    .map((v) => ({
      name: nameOf(v),
      value: numberOf(text(v, 'Value')),
      cstatus: numberOf(text(v, 'CStatus')),
    }))
    .filter((v) => v.name !== '');
}

/** perfmonCollectCounterData: one sample of every counter of every instance of `object` on `host`. */
export async function collectObject(
  send: Send,
  host: string,
  object: string,
  signal?: AbortSignal,
): Promise<CounterValue[]> {
  const element = 'perfmonCollectCounterDataReturn';
  return values(
    await call(send, PERFMON_OPS.collect, { Host: host, Object: object }, [element], signal),
    element,
  );
}

/**
 * Two samples of `paths` in a session, `intervalMs` apart: open, add, collect, wait, collect, close.
 * The session is closed whatever happens after it opened (a node keeps only so many).
 */
export async function sampleTwice(
  send: Send,
  paths: string[],
  intervalMs: number,
  signal?: AbortSignal,
): Promise<CounterValue[]> {
  permitOperations([PERFMON_OPS.open, PERFMON_OPS.add, PERFMON_OPS.collectSession, PERFMON_OPS.close]);
  const opened = await send({
    api: PERFMON_API,
    operation: PERFMON_OPS.open,
    idempotent: false,
    ...(signal ? { signal } : {}),
  });
  const handle = (text(opened, 'perfmonOpenSessionReturn') ?? '').slice(0, MAX_NAME);
  const session = { SessionHandle: handle };
  const element = 'perfmonCollectSessionDataReturn';
  try {
    await call(
      send,
      PERFMON_OPS.add,
      { ...session, ArrayOfCounter: { Counter: paths.map((Name) => ({ Name })) } },
      [],
      signal,
    );
    await call(send, PERFMON_OPS.collectSession, session, [element], signal);
    await sleep(intervalMs, undefined, signal ? { signal } : {});
    return values(await call(send, PERFMON_OPS.collectSession, session, [element], signal), element);
  } finally {
    await call(send, PERFMON_OPS.close, session, []).catch(() => undefined);
  }
}
