// The client of bench/axl-call.ts, in a process of its own (neither the lab nor the server shares its
// event loop): blocks of raw HTTPS SOAP POSTs of a getPhone envelope straight to the lab's AXL, then
// blocks of cucm_axl_call getPhone through the server (a real SDK client, 2025-11-25), alternating.
// Prints one BENCH-RESULT line with the latencies of each, in ms.
//   node --import tsx bench/support/axl-client.ts '<json AxlClientJob>'
import { pinnedFetch } from '../../test/helpers/https-client.ts';
import { connectMcp } from '../../test/helpers/mcp-client.ts';
import { printResult } from './proc.ts';
import { rawAxl } from './raw-axl.ts';

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
const axl = rawAxl(job);
const raw = async (): Promise<void> => {
  if (!(await axl.post('getPhone', `<name>${job.phone}</name>`)).includes(job.phone))
    throw new Error('raw POST: the phone is not in the answer');
};

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
  axl.close();
}
