// The lab's LogCollectionPortTypeService over loopback HTTP: every node's service and system logs, the
// files of a window with realistic names and folders (gzipped SDL traces), answers packaged as Axis2
// MTOM, FromDate/ToDate read in the zone TimeZone names, and the refusals (unknown log, bad date, a
// push to SFTP, the per-node rate with its fault).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { filesOf, logServicesOf } from '../../lab/serviceability/logs/catalogue.ts';
import { parseWallDate } from '../../lab/serviceability/logs/dates.ts';
import { logCollectionService } from '../../lab/serviceability/logs/service.ts';
import { soapServiceEndpoint } from '../../lab/serviceability/service.ts';
import type { ServiceabilityView } from '../../lab/serviceability/services.ts';
import { LabLog } from '../../lab/state/log.ts';

const NS = 'http://schemas.cisco.com/ast/soap';
const VIEW: ServiceabilityView = {
  product: 'cucm',
  node: 'cucm-pub',
  clusterNodes: () => ['cucm-pub', 'cucm-sub1'],
  bootedAt: Date.now(),
  perfmonPerMinute: 0,
};
const AUTH = `Basic ${Buffer.from('lc:secret').toString('base64')}`;

function criteria(o: {
  services?: string[];
  from?: string;
  to?: string;
  zone?: string;
  job?: string;
}): string {
  const items = (o.services ?? []).map((s) => `<ns:item>${s}</ns:item>`).join('');
  return (
    `<ns:FileSelectionCriteria><ns:ServiceLogs>${items}</ns:ServiceLogs><ns:SystemLogs/><ns:SearchStr/>` +
    `<ns:Frequency>OnDemand</ns:Frequency><ns:JobType>${o.job ?? 'DownloadtoClient'}</ns:JobType>` +
    `<ns:ToDate>${o.to ?? ''}</ns:ToDate><ns:FromDate>${o.from ?? ''}</ns:FromDate>` +
    `<ns:TimeZone>${o.zone ?? 'Client: (GMT+0:0)Greenwich Mean Time-Europe/London'}</ns:TimeZone>` +
    `<ns:RelText>None</ns:RelText><ns:RelTime>0</ns:RelTime><ns:Port>0</ns:Port><ns:IPAddress/>` +
    `<ns:UserName/><ns:Password/><ns:ZipInfo>false</ns:ZipInfo><ns:RemoteFolder/></ns:FileSelectionCriteria>`
  );
}

describe('lab LogCollectionPortTypeService', () => {
  let server: Server;
  let base: string;
  let limit = 1000;
  before(async () => {
    const handler = soapServiceEndpoint(
      logCollectionService(VIEW, () => limit),
      {
        node: 'cucm-pub',
        log: new LabLog(),
        authenticate: (u, p) => u === 'lc' && p === 'secret',
        publicAddress: () => 'lab.invalid:8443',
      },
    );
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/logcollectionservice2/services/LogCollectionPortTypeService`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  async function post(
    operation: string,
    inner: string,
  ): Promise<{ status: number; type: string; text: string }> {
    const body = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="${NS}"><soapenv:Body><ns:${operation}>${inner}</ns:${operation}></soapenv:Body></soapenv:Envelope>`;
    const r = await fetch(base, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'text/xml', soapaction: `"${operation}"` },
      body,
    });
    return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
  }

  it('serves its WSDL with the LogCollectionPortSoapBinding', async () => {
    const r = await fetch(`${base}?wsdl`);
    const text = await r.text();
    assert.match(text, /<wsdl:binding name="LogCollectionPortSoapBinding"/);
    assert.match(text, /<xsd:enumeration value="DownloadtoClient"\/>/);
    assert.match(
      text,
      /location="https:\/\/lab\.invalid:8443\/logcollectionservice2\/services\/LogCollectionPortTypeService"/,
    );
  });

  it('lists every node with its service and system logs, as Axis2 MTOM', async () => {
    const r = await post('listNodeServiceLogs', '<ns:ListRequest/>');
    assert.equal(r.status, 200);
    assert.match(
      r.type,
      /^multipart\/related; boundary=MIMEBoundary_[0-9a-f]+; type="application\/xop\+xml"; start="<0\.urn:uuid:[0-9A-F]+@apache\.org>"; start-info="text\/xml"$/,
    );
    assert.match(r.text, /Content-Type: application\/xop\+xml; charset=UTF-8; type="text\/xml"/);
    assert.equal((r.text.match(/<ns1:listNodeServiceLogsReturn>/g) ?? []).length, 2);
    assert.match(r.text, /<ns1:name>cucm-sub1<\/ns1:name>/);
    assert.match(r.text, /<ns1:item>Cisco CallManager<\/ns1:item>/);
    assert.match(r.text, /<ns1:SystemLog><ns1:item>Event Viewer-Application Log<\/ns1:item>/);
  });

  it("selects a window's files with their folders, sizes and dates", async () => {
    const r = await post('selectLogFiles', criteria({ services: ['Cisco CallManager'] }));
    assert.equal(r.status, 200, r.text);
    const names = [...r.text.matchAll(/<ns1:name>(SDL001_100_\d{6}\.txt\.gz)<\/ns1:name>/g)].map((m) => m[1]);
    // Six hours of a file every fifteen minutes.
    assert.ok(names.length >= 24 && names.length <= 25, String(names.length));
    assert.match(
      r.text,
      /<ns1:absolutepath>\/var\/log\/active\/cm\/trace\/ccm\/sdl\/SDL001_100_\d{6}\.txt\.gz<\/ns1:absolutepath>/,
    );
    assert.match(
      r.text,
      /<ns1:modifiedDate>[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} UTC \d{4}<\/ns1:modifiedDate>/,
    );
    const [service] = logServicesOf('cucm');
    const [file] = filesOf(service!, { node: 'cucm-pub', now: Date.now() }, 0, Date.now());
    assert.match(gunzipSync(file!.content()).toString('utf8'), /CallManager\|SdlSig/);
  });

  it('reads the dates in the zone TimeZone names', () => {
    const summer = parseWallDate('07/01/26 12:30 AM', 'Europe/London');
    assert.equal(new Date(summer!).toISOString(), '2026-06-30T23:30:00.000Z');
    const winter = parseWallDate('11/26/26 01:05 PM', 'America/Los_Angeles');
    assert.equal(new Date(winter!).toISOString(), '2026-11-26T21:05:00.000Z');
    assert.equal(parseWallDate('2026-11-26', 'UTC'), undefined);
  });

  it('a window in the past holds nothing; refusals are SOAP faults', async () => {
    const empty = await post(
      'selectLogFiles',
      criteria({ services: ['Cisco CallManager'], from: '01/01/20 10:00 AM', to: '01/01/20 11:00 AM' }),
    );
    assert.doesNotMatch(empty.text, /<ns1:File>/);
    const unknown = await post('selectLogFiles', criteria({ services: ['No Such Service'] }));
    assert.equal(unknown.status, 500);
    assert.match(unknown.text, /No such service log: No Such Service/);
    const date = await post(
      'selectLogFiles',
      criteria({ services: ['Cisco CallManager'], from: 'yesterday' }),
    );
    assert.match(date.text, /Invalid FromDate yesterday/);
    const push = await post(
      'selectLogFiles',
      criteria({ services: ['Cisco CallManager'], job: 'PushtoSFTPServer' }),
    );
    assert.match(push.text, /JobType PushtoSFTPServer is not served/);
  });

  it('GetOneFile: FileName alone in the Body, the file as an XOP part; a file not listed is a fault', async () => {
    const [service] = logServicesOf('cucm');
    const [file] = filesOf(service!, { node: 'cucm-pub', now: Date.now() }, 0, Date.now());
    const bare = (inner: string): Promise<Response> =>
      fetch(base, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'text/xml', soapaction: '"GetOneFile"' },
        body: `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`,
      });
    const r = await bare(`<ns0:FileName xmlns:ns0="${NS}">${file!.path}</ns0:FileName>`);
    assert.equal(r.status, 200);
    const body = Buffer.from(await r.arrayBuffer());
    const text = body.toString('latin1');
    const cid =
      /<xop:Include xmlns:xop="http:\/\/www\.w3\.org\/2004\/08\/xop\/include" href="cid:([^"]+)"\/>/.exec(
        text,
      )?.[1];
    assert.ok(cid, text.slice(0, 600));
    assert.match(text, /<ns1:GetOneFileReturn xmlns:ns1="http:\/\/schemas\.cisco\.com\/ast\/soap">/);
    const head = `Content-ID: <${cid}>\r\n\r\n`;
    const at = text.indexOf(head) + head.length;
    const boundary = /boundary=([^;]+)/.exec(r.headers.get('content-type') ?? '')?.[1];
    const end = text.indexOf(`\r\n--${boundary}`, at);
    assert.deepEqual(body.subarray(at, end), file!.content());
    const missing = await bare(`<ns0:FileName xmlns:ns0="${NS}">/var/log/active/nothing.txt</ns0:FileName>`);
    assert.equal(missing.status, 500);
    assert.match(await missing.text(), /File \/var\/log\/active\/nothing\.txt not found/);
    const empty = await bare(`<ns0:FileName xmlns:ns0="${NS}"/>`);
    assert.match(await empty.text(), /FileName is missing/);
    const wsdl = await (await fetch(`${base}?wsdl`)).text();
    assert.match(wsdl, /<wsdl:part name="FileName" element="tns:FileName"\/>/);
    assert.match(
      wsdl,
      /<xsd:element name="GetOneFileReturn" type="xsd:base64Binary" xmime:expectedContentTypes="\*\/\*"/,
    );
  });

  it('refuses past its rate with the fault naming the limit', async () => {
    limit = 2;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post('listNodeServiceLogs', '<ns:ListRequest/>'));
    const refused = answers.find((a) => a.status === 500);
    assert.ok(refused);
    assert.match(refused.text, /Exceeded allowed rate for Log Collection.*2 requests per minute/);
    limit = 1000;
  });
});
