// PerfmonService on one lab node: the nine operations of the public API over the node's objects
// (catalogue.ts), sessions with their lab limits (sessions.ts) and the node's request rate with the
// real node's AxisFault wording ("Exceeded allowed rate for Perfmon information. Current allowed rate
// for perfmon information is 80 requests per minute.PerfmonService", as a node answers it in the
// sieteunoseis/cisco-perfmon README; the lab's default limit is that figure). Fault texts of other
// refusals are the lab's.
import type { XmlObject, XmlValue } from '../../xml/parse.ts';
import { asArray, childOf, isObject, textOf } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import type { SoapServiceDef } from '../service.ts';
import { SoapFault } from '../service.ts';
import type { ServiceabilityView } from '../services.ts';
import type { LabCounter, LabObject } from './catalogue.ts';
import { objectsOf } from './catalogue.ts';
import { MAX_COUNTERS_PER_SESSION, PerfmonSessions } from './sessions.ts';
import { PERFMON_NAMESPACE, PERFMON_PATH, perfmonWsdl } from './wsdl.ts';

/** CStatus of a value (lab reading of the PDH status codes: 0 valid data, 1 new data with no average yet). */
const VALID = 0;
const FIRST_SAMPLE = 1;

interface CounterPath {
  host: string;
  object: string;
  instance?: string;
  counter: string;
}

/** `\\host\Object(instance)\Counter` or `\\host\Object\Counter`. */
export function parseCounterPath(path: string): CounterPath | undefined {
  const m = /^\\\\([^\\]+)\\(.+)\\([^\\]+)$/.exec(path);
  if (!m) return undefined;
  const [, host, objectPart, counter] = m as unknown as [string, string, string, string];
  const inst = /^(.*)\((.*)\)$/.exec(objectPart);
  return inst
    ? { host, object: inst[1] as string, instance: inst[2] as string, counter }
    : { host, object: objectPart, counter };
}

function counterPath(
  host: string,
  object: LabObject,
  instance: string | undefined,
  counter: LabCounter,
): string {
  return `\\\\${host}\\${object.name}${instance !== undefined ? `(${instance})` : ''}\\${counter.name}`;
}

/** Every repetition of a child element (childOf gives the first only). */
function every(parent: XmlValue | undefined, name: string): XmlValue | undefined {
  return isObject(parent) ? parent[name] : undefined;
}

function text(body: XmlValue | undefined, name: string): string {
  const v = childOf(body, name);
  // A simple-content name type may arrive with attributes (xsi:type): its text is what counts.
  return (isObject(v) ? textOf(v['#text']) : textOf(v)) ?? '';
}

export function perfmonService(view: ServiceabilityView, perMinute: () => number): SoapServiceDef {
  const sessions = new PerfmonSessions();
  const hostOf = (host: string): string => {
    const found = view.clusterNodes().find((n) => n.toLowerCase() === host.trim().toLowerCase());
    if (!found) throw new SoapFault(`Host ${host} is not a node of this cluster`, 'soapenv:Client');
    return found;
  };
  const objectOf = (host: string, name: string): LabObject => {
    const found = objectsOf(view, host).find((o) => o.name === name);
    if (!found) throw new SoapFault(`Object ${name} not found on ${host}`, 'soapenv:Client');
    return found;
  };
  const resolve = (
    path: string,
  ): { host: string; object: LabObject; instance?: string; counter: LabCounter } => {
    const p = parseCounterPath(path);
    if (!p) throw new SoapFault(`Invalid counter name ${path}`, 'soapenv:Client');
    const host = hostOf(p.host);
    const object = objectOf(host, p.object);
    const counter = object.counters.find((c) => c.name === p.counter);
    const instances = object.instances?.();
    const instanceOk = instances
      ? p.instance !== undefined && instances.includes(p.instance)
      : p.instance === undefined;
    if (!counter || !instanceOk) throw new SoapFault(`Counter ${path} not found`, 'soapenv:Client');
    return { host, object, counter, ...(p.instance !== undefined ? { instance: p.instance } : {}) };
  };
  /** A single sample: a percentage counter has no average from one sample (value 0, first-sample status). */
  const single = (c: LabCounter, instance: string | undefined): [number, number] =>
    c.kind === 'percentage' ? [0, FIRST_SAMPLE] : [Math.round(c.value(instance ?? '')), FIRST_SAMPLE];
  const info = (name: string, [value, status]: [number, number]): XmlOutObject => ({
    Name: name,
    Value: value,
    CStatus: status,
  });
  const handleOf = (body: XmlObject): ReturnType<PerfmonSessions['get']> & object => {
    const handle = text(body, 'SessionHandle');
    const s = sessions.get(handle);
    if (!s) throw new SoapFault(`Invalid session handle ${handle}`, 'soapenv:Client');
    return s;
  };
  const countersOf = (body: XmlObject): string[] =>
    asArray(every(childOf(body, 'ArrayOfCounter'), 'Counter')).map((c) => text(c, 'Name'));

  return {
    name: 'PerfmonService',
    path: PERFMON_PATH,
    namespace: PERFMON_NAMESPACE,
    wsdl: perfmonWsdl,
    perMinute,
    rateFault: (limit) =>
      `Exceeded allowed rate for Perfmon information. Current allowed rate for perfmon information is ${limit} requests per minute.PerfmonService`,
    operations: {
      perfmonListCounter: ({ body }) => {
        const host = hostOf(text(body, 'Host'));
        return {
          perfmonListCounterReturn: objectsOf(view, host).map((o) => ({
            Name: o.name,
            MultiInstance: o.instances !== undefined,
            ArrayOfCounter: { item: o.counters.map((c) => ({ Name: c.name })) },
          })),
        };
      },
      perfmonListInstance: ({ body }) => {
        const host = hostOf(text(body, 'Host'));
        const object = objectOf(host, text(body, 'Object'));
        return { perfmonListInstanceReturn: (object.instances?.() ?? []).map((i) => ({ Name: i })) };
      },
      perfmonQueryCounterDescription: ({ body }) => {
        const { counter } = resolveDescribed(text(body, 'Counter'));
        return { perfmonQueryCounterDescriptionReturn: counter.description };
      },
      perfmonCollectCounterData: ({ body }) => {
        const host = hostOf(text(body, 'Host'));
        const object = objectOf(host, text(body, 'Object'));
        const instances = object.instances?.() ?? [undefined];
        return {
          perfmonCollectCounterDataReturn: instances.flatMap((i) =>
            object.counters.map((c) => info(counterPath(host, object, i, c), single(c, i))),
          ),
        };
      },
      perfmonOpenSession: () => {
        const s = sessions.open();
        if (!s) throw new SoapFault('Session limit reached: close a session before opening another');
        return { perfmonOpenSessionReturn: s.handle };
      },
      perfmonAddCounter: ({ body }) => {
        const s = handleOf(body);
        const add = countersOf(body);
        for (const path of add) resolve(path);
        const next = [...new Set([...s.counters, ...add])];
        if (next.length > MAX_COUNTERS_PER_SESSION)
          throw new SoapFault(
            `A session holds at most ${MAX_COUNTERS_PER_SESSION} counters`,
            'soapenv:Client',
          );
        s.counters = next;
        return {};
      },
      perfmonRemoveCounter: ({ body }) => {
        const s = handleOf(body);
        const drop = new Set(countersOf(body));
        s.counters = s.counters.filter((c) => !drop.has(c));
        for (const c of drop) s.sampled.delete(c);
        return {};
      },
      perfmonCollectSessionData: ({ body }) => {
        const s = handleOf(body);
        return {
          perfmonCollectSessionDataReturn: s.counters.map((path) => {
            const { counter, instance } = resolve(path);
            if (counter.kind !== 'percentage') return info(path, single(counter, instance));
            const seen = s.sampled.has(path);
            s.sampled.add(path);
            return info(path, seen ? [Math.round(counter.value(instance ?? '')), VALID] : [0, FIRST_SAMPLE]);
          }),
        };
      },
      perfmonCloseSession: ({ body }) => {
        const handle = text(body, 'SessionHandle');
        if (!sessions.close(handle))
          throw new SoapFault(`Invalid session handle ${handle}`, 'soapenv:Client');
        return {};
      },
    },
  };

  function resolveDescribed(path: string): { counter: LabCounter } {
    // A description names the counter without an instance even on a multi-instance object.
    const p = parseCounterPath(path);
    if (!p) throw new SoapFault(`Invalid counter name ${path}`, 'soapenv:Client');
    const object = objectOf(hostOf(p.host), p.object);
    const counter = object.counters.find((c) => c.name === p.counter);
    if (!counter) throw new SoapFault(`Counter ${path} not found`, 'soapenv:Client');
    return { counter };
  }
}
