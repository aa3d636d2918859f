// How the lab holds up at benchmark scale: start time with N bulk phones, a full RisPort sweep with
// StateInfo paging, and an AXL listPhone of every name. Run: node --import tsx bench/lab-scale.ts [phones]
import { request } from 'node:https';
import { join } from 'node:path';
import { labNode, labTrustedPem, startLab } from '../lab/index.ts';
import type { Lab } from '../lab/index.ts';

const phones = Number(process.argv[2] ?? 5000);

function post(lab: Lab, url: string, body: string, soapAction: string): Promise<string> {
  const auth = labNode(lab.info, 'cucm').credentials.axl;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca: labTrustedPem(lab.info),
        auth: `${auth?.user ?? ''}:${auth?.password ?? ''}`,
        headers: { 'content-type': 'text/xml', soapaction: soapAction },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const ris = (stateInfo: string): string =>
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:soap="http://schemas.cisco.com/ast/soap"><soapenv:Body><soap:selectCmDevice><soap:StateInfo>${stateInfo.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</soap:StateInfo><soap:CmSelectionCriteria><soap:MaxReturnedDevices>1000</soap:MaxReturnedDevices><soap:DeviceClass>Phone</soap:DeviceClass><soap:Model>255</soap:Model><soap:Status>Any</soap:Status><soap:SelectBy>Name</soap:SelectBy><soap:SelectItems><soap:item><soap:Item>*</soap:Item></soap:item></soap:SelectItems></soap:CmSelectionCriteria></soap:selectCmDevice></soapenv:Body></soapenv:Envelope>`;

const t0 = performance.now();
const lab = await startLab({
  extraPhones: phones,
  risRateLimitPerMinute: 1000,
  stateDir: join(import.meta.dirname, '..', '.tmp', 'lab-state'),
});
const started = performance.now() - t0;
try {
  const cucm = labNode(lab.info, 'cucm');
  const t1 = performance.now();
  let stateInfo = '';
  let records = 0;
  let pages = 0;
  for (;;) {
    const xml = await post(lab, cucm.urls.ris as string, ris(stateInfo), 'selectCmDevice');
    const found = Number(/<ns1:TotalDevicesFound>(\d+)</.exec(xml)?.[1] ?? 0);
    stateInfo = (/<ns1:StateInfo>([\s\S]*?)<\/ns1:StateInfo>/.exec(xml)?.[1] ?? '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    records += found;
    pages++;
    if (found < 1000) break;
  }
  const sweep = performance.now() - t1;
  const t2 = performance.now();
  const list = await post(
    lab,
    cucm.urls.axl as string,
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="http://www.cisco.com/AXL/API/15.0"><soapenv:Body><ns:listPhone><searchCriteria><name>%</name></searchCriteria><returnedTags><name/></returnedTags></ns:listPhone></soapenv:Body></soapenv:Envelope>',
    '"CUCM:DB ver=15.0 listPhone"',
  );
  const listed = (list.match(/<phone /g) ?? []).length;
  const axl = performance.now() - t2;
  console.log(
    JSON.stringify(
      {
        phones,
        startMs: Math.round(started),
        risSweep: { pages, records, ms: Math.round(sweep) },
        axlListPhone: { phones: listed, ms: Math.round(axl) },
      },
      null,
      2,
    ),
  );
} finally {
  await lab.stop();
}
