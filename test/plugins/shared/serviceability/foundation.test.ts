// The serviceability SOAP foundation without a node: requests escape every value, answers are read as
// untrusted XML with faults coded, and each node's budget is kept per node and per API.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import type { HttpAnswer } from '../../../../plugins/_shared/axl/transport.ts';
import {
  NodeRateFault,
  readAnswer,
  SoapFaultError,
} from '../../../../plugins/_shared/serviceability/answer.ts';
import { soapEnvelope } from '../../../../plugins/_shared/serviceability/envelope.ts';
import {
  NodeServiceLimits,
  ServiceabilityRateLimitError,
} from '../../../../plugins/_shared/serviceability/limits.ts';
import { PERFMON_API } from '../../../../plugins/_shared/serviceability/perfmon/api.ts';
import { collectObject } from '../../../../plugins/_shared/serviceability/perfmon/calls.ts';
import {
  counterPath,
  needsTwoSamples,
  parseCounterPath,
  unitOf,
  validStatus,
} from '../../../../plugins/_shared/serviceability/perfmon/counters.ts';

const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';

function answer(status: number, body: string, type = 'text/xml; charset=utf-8'): HttpAnswer {
  return { status, headers: { 'content-type': type }, body: Buffer.from(body) };
}
const soap = (inner: string): string =>
  `<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="${ENV}"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
const fault = (text: string): string =>
  soap(
    `<soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>${text}</faultstring></soapenv:Fault>`,
  );
const read = (a: HttpAnswer, operation = 'perfmonCollectCounterData') =>
  readAnswer(a, {
    api: PERFMON_API,
    operation,
    where: 'cucm-pub:8443',
    arrays: new Set(['perfmonCollectCounterDataReturn']),
  });

describe('serviceability requests', () => {
  it('escape every value: a hostile object name stays text, in the API namespace', () => {
    const hostile = '</ns:Object><ns:Host>evil</ns:Host><ns:Object>&x;';
    const xml = soapEnvelope(PERFMON_API.namespace, 'perfmonCollectCounterData', {
      Host: 'cucm-pub',
      Object: hostile,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a parsed SOAP request
    const op = (new XMLParser({ removeNSPrefix: true, processEntities: true }).parse(xml) as any).Envelope
      .Body.perfmonCollectCounterData;
    assert.equal(op.Host, 'cucm-pub');
    assert.equal(op.Object, hostile);
    assert.match(xml, /xmlns:ns="http:\/\/schemas\.cisco\.com\/ast\/soap"/);
  });

  it('nest and repeat fields (ArrayOfCounter of Counter)', () => {
    const xml = soapEnvelope('urn:x', 'perfmonAddCounter', {
      SessionHandle: '{A}',
      ArrayOfCounter: { Counter: [{ Name: 'a' }, { Name: 'b' }] },
    });
    assert.match(
      xml,
      /<ns:ArrayOfCounter><ns:Counter><ns:Name>a<\/ns:Name><\/ns:Counter><ns:Counter><ns:Name>b<\/ns:Name><\/ns:Counter><\/ns:ArrayOfCounter>/,
    );
  });
});

describe('serviceability answers', () => {
  it('give the response element of the operation, prefixes removed', () => {
    const r = read(
      answer(
        200,
        soap(
          `<ns1:perfmonCollectCounterDataResponse xmlns:ns1="${PERFMON_API.namespace}"><ns1:perfmonCollectCounterDataReturn><ns1:Name>\\\\n\\Memory\\% Mem Used</ns1:Name><ns1:Value>62</ns1:Value><ns1:CStatus>1</ns1:CStatus></ns1:perfmonCollectCounterDataReturn></ns1:perfmonCollectCounterDataResponse>`,
        ),
      ),
    );
    assert.deepEqual(r.perfmonCollectCounterDataReturn, [
      { Name: '\\\\n\\Memory\\% Mem Used', Value: '62', CStatus: '1' },
    ]);
  });

  it('refuse a DOCTYPE, broken XML, a non-SOAP page and a missing response as SERVICEABILITY_ERROR', () => {
    const cases: HttpAnswer[] = [
      answer(200, `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]>${soap('<x/>')}`),
      answer(200, '<soapenv:Envelope xmlns:soapenv="x"><soapenv:Body>'),
      answer(200, '<html>login</html>', 'text/html'),
      answer(200, soap('<other/>')),
    ];
    for (const c of cases)
      assert.throws(
        () => read(c),
        (e: unknown) => e instanceof ServiceabilityError,
      );
  });

  it('name the roles on 401 and the path on 404', () => {
    assert.throws(
      () => read(answer(401, 'no', 'text/html')),
      /authentication to PerfmonService on cucm-pub:8443 failed \(HTTP 401\).*RealtimeAndTraceCollection/,
    );
    assert.throws(
      () => read(answer(404, 'no', 'text/html')),
      /does not serve PerfmonService at \/perfmonservice2\/services\/PerfmonService/,
    );
  });

  it("turn a fault into SoapFaultError with the node's text, bounded and without controls", () => {
    const long = `Object X not found\u0007${'y'.repeat(1000)}`;
    assert.throws(
      () => read(answer(500, fault(long))),
      (e: unknown) =>
        e instanceof SoapFaultError &&
        e.faultcode === 'soapenv:Server' &&
        !e.message.includes('\u0007') &&
        e.faultstring.length <= 301 &&
        /with a fault: Object X not found/.test(e.message),
    );
  });

  it("recognise PerfMon's rate fault and the limit it announces", () => {
    const text =
      'Exceeded allowed rate for Perfmon information. Current allowed rate for perfmon information is 80 requests per minute.PerfmonService';
    assert.throws(
      () => read(answer(500, fault(text))),
      (e: unknown) => e instanceof NodeRateFault && e.nodeLimit === 80,
    );
    assert.equal(PERFMON_API.rateFault?.('Exceeded allowed rate for Perfmon information.'), null);
    assert.equal(PERFMON_API.rateFault?.('Object not found'), undefined);
  });
});

describe('per-node, per-API budgets', () => {
  const other = { ...PERFMON_API, name: 'ControlCenterServices', perMinute: 2 };

  it('keeps one window per node and per API; a spent one refuses with the retry time', async () => {
    const limits = new NodeServiceLimits({ perMinute: { PerfmonService: 2 }, windowMs: 60_000, marginMs: 0 });
    const pm = limits.of(PERFMON_API);
    await pm.acquire('a:8443', 0);
    await pm.acquire('a:8443', 0);
    await assert.rejects(pm.acquire('a:8443', 0), (e: unknown) => {
      assert.ok(e instanceof ServiceabilityRateLimitError);
      assert.equal(e.code, 'SERVICEABILITY_ERROR');
      assert.equal(e.source, 'local');
      assert.ok((e.retryAfterSeconds ?? 0) >= 59 && (e.retryAfterSeconds ?? 0) <= 60);
      assert.match(
        e.message,
        /PerfmonService budget of a:8443 \(2 requests per minute.*retry in \d+ s \(after \d\d:\d\d:\d\d UTC\)/,
      );
      return true;
    });
    // Another node, and another API of the same node, have their own windows.
    await pm.acquire('b:8443', 0);
    await limits.of(other).acquire('a:8443', 0);
    assert.deepEqual(await limits.budget(PERFMON_API, { host: 'A', port: 8443 }), {
      per_minute: 2,
      remaining: 0,
    });
    assert.deepEqual(await limits.budget(other, { host: 'a', port: 8443 }), { per_minute: 2, remaining: 1 });
  });

  it("after the node's rate fault: its lower limit is adopted and the node blocked for a window", async () => {
    const limits = new NodeServiceLimits({ windowMs: 60_000, marginMs: 0 });
    const pm = limits.of(PERFMON_API);
    assert.equal(await pm.limitOf('a:8443'), 80);
    assert.equal(await pm.nodeRefused('a:8443', 40), 60);
    assert.equal(await pm.limitOf('a:8443'), 40);
    assert.equal(await pm.remaining('a:8443'), 0);
    assert.equal(await pm.limitOf('b:8443'), 80);
  });

  it('waits for a slot when it frees within maxWaitMs', async () => {
    const limits = new NodeServiceLimits({ perMinute: { PerfmonService: 1 }, windowMs: 150, marginMs: 0 });
    const pm = limits.of(PERFMON_API);
    await pm.acquire('a:8443', 0);
    const t0 = Date.now();
    await pm.acquire('a:8443', 1000);
    assert.ok(Date.now() - t0 >= 100);
  });
});

describe('PerfMon counter names, units and statuses', () => {
  it('read and write full counter names with and without an instance', () => {
    const withInstance = { host: 'cucm-pub', object: 'Processor', instance: '_Total', counter: '% CPU Time' };
    assert.equal(counterPath(withInstance), '\\\\cucm-pub\\Processor(_Total)\\% CPU Time');
    assert.deepEqual(parseCounterPath(counterPath(withInstance)), withInstance);
    const single = { host: '10.0.0.1', object: 'Cisco CallManager', counter: 'CallsActive' };
    assert.deepEqual(parseCounterPath(counterPath(single)), single);
    assert.equal(parseCounterPath('Memory\\% Mem Used'), undefined);
  });

  it('say which counters need two samples and their units', () => {
    assert.equal(needsTwoSamples('% CPU Time'), true);
    assert.equal(needsTwoSamples('IOwait Percentage'), true);
    assert.equal(needsTwoSamples('RegisteredHardwarePhones'), false);
    assert.deepEqual(['% Mem Used', 'Total KBytes', 'Total Mbytes', 'CallsActive'].map(unitOf), [
      'percent',
      'kilobytes',
      'megabytes',
      'count',
    ]);
    assert.deepEqual([0, 1, 2, 3221228473].map(validStatus), [true, true, false, false]);
  });

  it('read a value only from a number the node wrote: empty or malformed is NaN, never 0', async () => {
    const row = (counter: string, Value: string) => ({
      Name: `\\\\n\\Memory\\${counter}`,
      Value,
      CStatus: '1',
    });
    const send = () =>
      Promise.resolve({
        perfmonCollectCounterDataReturn: [row('a', ''), row('b', '12'), row('c', '1e9'), row('d', '-3')],
      });
    const v = await collectObject(send, 'n', 'Memory');
    assert.deepEqual(
      v.map((x) => [x.name, x.value]),
      [
        ['\\\\n\\Memory\\a', NaN],
        ['\\\\n\\Memory\\b', 12],
        ['\\\\n\\Memory\\c', NaN],
        ['\\\\n\\Memory\\d', -3],
      ],
    );
  });
});
