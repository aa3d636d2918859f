// The client of bench/axl-call.ts, in a process of its own (neither the lab nor the server shares its
// event loop): blocks of raw HTTPS SOAP POSTs of a getPhone envelope straight to the lab's AXL, then
// blocks of cucm_axl_call getPhone through the server (a real SDK client, 2025-11-25), alternating.
// Prints one BENCH-RESULT line with the latencies of each, in ms.
//   node --import tsx bench/support/axl-client.ts '<json AxlClientJob>'
import { Agent, request } from 'node:https';
import { pinnedFetch } from '../../test/helpers/https-client.ts';
import { connectMcp } from '../../test/helpers/mcp-client.ts';
import { printResult } from './proc.ts';

export interface AxlClientJob {
  serverUrl: string;
  serverCertPem: string;
  token: string;
  labTrustPem: string;
  cucmName: string;
  cucmHttpsPort: number;
  user: string;
  password: string;
  phone: string;
  calls: number;
  block: number;
}

export interface AxlClientResult {
  raw: number[];
  full: number[];
}

const job = JSON.parse(process.argv[2] as string) as AxlClientJob;
const agent = new Agent({ keepAlive: true, ca: job.labTrustPem, maxSockets: 1 });
const envelope = `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="http://www.cisco.com/AXL/API/15.0"><soapenv:Body><ns:getPhone><name>${job.phone}</name></ns:getPhone></soapenv:Body></soapenv:Envelope>`;
const auth = `Basic ${Buffer.from(`${job.user}:${job.password}`).toString('base64')}`;

const raw = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const r = request(
      {
        host: '127.0.0.1',
        port: job.cucmHttpsPort,
        path: '/axl/',
        method: 'POST',
        agent,
        headers: {
          authorization: auth,
          'content-type': 'text/xml; charset=utf-8',
          soapaction: '"CUCM:DB ver=15.0 getPhone"',
          'content-length': Buffer.byteLength(envelope),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          res.statusCode === 200 && Buffer.concat(chunks).includes(job.phone)
            ? resolve()
            : reject(new Error(`raw POST: HTTP ${res.statusCode}`)),
        );
      },
    );
    r.on('error', reject);
    r.end(envelope);
  });

const fetch = pinnedFetch(job.serverCertPem);
const mcp = await connectMcp({ url: job.serverUrl, fetch }, job.token);
const full = async (): Promise<void> => {
  const r = await mcp.call('cucm_axl_call', {
    host: job.cucmName,
    operation: 'getPhone',
    args: { name: job.phone },
  });
  if (r.isError || !JSON.stringify(r.structuredContent).includes(job.phone))
    throw new Error(JSON.stringify(r.structuredContent ?? r.content));
};
const time = async (fn: () => Promise<void>, n: number, into: number[]): Promise<void> => {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    into.push(performance.now() - t);
  }
};
try {
  // Warm-up: schema parse, vault key derivation, JIT, TLS sessions.
  await time(raw, 10, []);
  await time(full, 10, []);
  const out: AxlClientResult = { raw: [], full: [] };
  for (let done = 0; done < job.calls; done += job.block) {
    await time(raw, Math.min(job.block, job.calls - done), out.raw);
    await time(full, Math.min(job.block, job.calls - done), out.full);
  }
  printResult(out);
} finally {
  await mcp.close();
  await fetch.close();
  agent.destroy();
}
