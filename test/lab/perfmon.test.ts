// The lab's PerfmonService and the serviceability endpoint under it, over loopback HTTP: what a node
// refuses (login, a SOAPAction naming another operation, an unknown operation, the per-node rate with
// PerfMon's fault wording) and the session limits the lab keeps.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { objectsOf } from '../../lab/serviceability/perfmon/catalogue.ts';
import { perfmonService } from '../../lab/serviceability/perfmon/service.ts';
import type { ServiceabilityView } from '../../lab/serviceability/services.ts';
import { MAX_COUNTERS_PER_SESSION, MAX_SESSIONS } from '../../lab/serviceability/perfmon/sessions.ts';
import { soapServiceEndpoint } from '../../lab/serviceability/service.ts';
import { LabLog } from '../../lab/state/log.ts';

const NS = 'http://schemas.cisco.com/ast/soap';
const VIEW: ServiceabilityView = {
  product: 'cuc',
  node: 'cuc-pub',
  clusterNodes: () => ['cuc-pub', 'cuc-sub'],
  bootedAt: Date.now(),
  perfmonPerMinute: 0,
};
const AUTH = `Basic ${Buffer.from('pm:secret').toString('base64')}`;

describe('lab PerfmonService', () => {
  let server: Server;
  let base: string;
  let limit = 1000;
  const log = new LabLog();
  before(async () => {
    const def = perfmonService(VIEW, () => limit);
    const handler = soapServiceEndpoint(def, {
      node: 'cuc-pub',
      log,
      authenticate: (u, p) => u === 'pm' && p === 'secret',
      publicAddress: () => 'lab.invalid:8443',
    });
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/perfmonservice2/services/PerfmonService`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  async function post(
    operation: string,
    inner: string,
    action = operation,
    auth = AUTH,
  ): Promise<{ status: number; text: string }> {
    const body = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="${NS}"><soapenv:Body><ns:${operation}>${inner}</ns:${operation}></soapenv:Body></soapenv:Envelope>`;
    const r = await fetch(base, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'text/xml', soapaction: `"${action}"` },
      body,
    });
    return { status: r.status, text: await r.text() };
  }
  const handleOf = (text: string): string => /perfmonOpenSessionReturn>([^<]+)</.exec(text)?.[1] ?? '';

  it('serves its WSDL with the PerfmonBinding at the public address', async () => {
    const r = await fetch(`${base}?wsdl`);
    const text = await r.text();
    assert.equal(r.status, 200);
    assert.match(text, /<wsdl:binding name="PerfmonBinding" type="tns:PerfmonPortType">/);
    assert.match(
      text,
      /<soap:address location="https:\/\/lab\.invalid:8443\/perfmonservice2\/services\/PerfmonService"\/>/,
    );
    assert.match(text, /<xsd:complexType name="CounterNameType">\s*<xsd:simpleContent>/);
  });

  it('refuses a wrong login, a mismatched SOAPAction and an unknown operation', async () => {
    assert.equal(
      (await post('perfmonListCounter', '<ns:Host>cuc-pub</ns:Host>', 'perfmonListCounter', 'Basic eDp5'))
        .status,
      401,
    );
    const mismatch = await post('perfmonListCounter', '<ns:Host>cuc-pub</ns:Host>', 'perfmonCloseSession');
    assert.equal(mismatch.status, 500);
    assert.match(
      mismatch.text,
      /SOAPAction &apos;perfmonCloseSession&apos; does not match|SOAPAction 'perfmonCloseSession' does not match/,
    );
    const unknown = await post('perfmonDropEverything', '');
    assert.match(unknown.text, /No such operation/);
  });

  it('answers objects of the node and refuses an unknown host or object', async () => {
    const ok = await post('perfmonListCounter', '<ns:Host>CUC-PUB</ns:Host>');
    assert.equal(ok.status, 200);
    assert.match(ok.text, /<ns1:Name>Memory<\/ns1:Name>/);
    assert.doesNotMatch(ok.text, /Cisco CallManager/);
    assert.match(
      (await post('perfmonListCounter', '<ns:Host>other</ns:Host>')).text,
      /Host other is not a node of this cluster/,
    );
    assert.match(
      (await post('perfmonListInstance', '<ns:Host>cuc-pub</ns:Host><ns:Object>Nope</ns:Object>')).text,
      /Object Nope not found/,
    );
  });

  it(`keeps at most ${MAX_SESSIONS} sessions and ${MAX_COUNTERS_PER_SESSION} counters per session`, async () => {
    const handles: string[] = [];
    for (let i = 0; i < MAX_SESSIONS; i++)
      handles.push(handleOf((await post('perfmonOpenSession', '')).text));
    assert.equal(new Set(handles).size, MAX_SESSIONS);
    assert.match((await post('perfmonOpenSession', '')).text, /Session limit reached/);
    const add = (h: string, paths: string[]) =>
      post(
        'perfmonAddCounter',
        `<ns:SessionHandle>${h}</ns:SessionHandle><ns:ArrayOfCounter>${paths.map((p) => `<ns:Counter><ns:Name>${p}</ns:Name></ns:Counter>`).join('')}</ns:ArrayOfCounter>`,
      );
    assert.match((await add(handles[0]!, ['\\\\cuc-pub\\Memory\\No Such Counter'])).text, /not found/);
    const every = ['cuc-pub', 'cuc-sub'].flatMap((host) =>
      objectsOf(VIEW, host).flatMap((o) =>
        (o.instances?.() ?? [undefined]).flatMap((i) =>
          o.counters.map((c) => `\\\\${host}\\${o.name}${i === undefined ? '' : `(${i})`}\\${c.name}`),
        ),
      ),
    );
    assert.ok(every.length > MAX_COUNTERS_PER_SESSION);
    const over = await add(handles[0]!, every.slice(0, MAX_COUNTERS_PER_SESSION + 1));
    assert.match(over.text, new RegExp(`at most ${MAX_COUNTERS_PER_SESSION} counters`));
    assert.equal((await add(handles[0]!, every.slice(0, MAX_COUNTERS_PER_SESSION))).status, 200);
    // Adding one already there changes nothing; one more is refused.
    assert.equal((await add(handles[0]!, every.slice(0, 1))).status, 200);
    const more = every.slice(MAX_COUNTERS_PER_SESSION, MAX_COUNTERS_PER_SESSION + 1);
    assert.equal((await add(handles[0]!, more)).status, 500);
    for (const h of handles)
      assert.equal(
        (await post('perfmonCloseSession', `<ns:SessionHandle>${h}</ns:SessionHandle>`)).status,
        200,
      );
    assert.match(
      (await post('perfmonCloseSession', `<ns:SessionHandle>${handles[0]}</ns:SessionHandle>`)).text,
      /Invalid session handle/,
    );
  });

  it("answers PerfMon's rate fault past the node's limit, and logs each request", async () => {
    limit = 2;
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 4; i++) {
      const r = await post('perfmonListCounter', '<ns:Host>cuc-pub</ns:Host>');
      statuses.push(r.status);
      last = r.text;
    }
    assert.ok(statuses.includes(500));
    assert.match(
      last,
      /Exceeded allowed rate for Perfmon information\. Current allowed rate for perfmon information is 2 requests per minute\.PerfmonService/,
    );
    assert.ok(log.requests.every((r) => r.service === 'serviceability' && r.node === 'cuc-pub'));
    assert.ok(log.requests.some((r) => r.operation === 'PerfmonService.perfmonOpenSession'));
  });
});
