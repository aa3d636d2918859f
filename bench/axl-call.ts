// cucm_axl_call getPhone through the whole stack (MCP over TLS, bearer JWT, RBAC, allowlist, rate
// limit, vault, audit, strong-soap envelope and answer parsing) versus a raw HTTPS SOAP POST of the same
// envelope to the lab, measured in the same run, alternating blocks of calls so noise hits both alike.
//
// Two lab settings: the lab answering at once (0 ms: the ratio is then mostly the MCP round trip over
// a sub-millisecond baseline) and a publisher's realistic service time (default 20 ms, --service-ms).
// The 2x target is judged at the realistic setting; the absolute overhead is printed for both.
//   node --import tsx bench/axl-call.ts [--calls 90] [--service-ms 20]
import { Agent, request } from 'node:https';
import { parseArgs } from 'node:util';
import { prepareCucm, startProductStack } from '../test/helpers/product-stack.ts';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '90' }, 'service-ms': { type: 'string', default: '20' } },
});
// The auditor's AXL limit is 120 calls a minute, enforced as for any client: stay under it.
const CALLS = Math.min(Number(values.calls), 100);
const SERVICE_MS = Number(values['service-ms']);
const PHONE = 'SEP0A1B2C3D4E01';
const BLOCK = 15;

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function measure(serviceMs: number): Promise<{ raw: number[]; full: number[] }> {
  const s = await startProductStack({ seedVaultFor: ['auditor'], lab: { axlServiceTimeMs: serviceMs } });
  try {
    const cucm = await prepareCucm(s);
    const creds = cucm.credentials.axl;
    if (!creds) throw new Error('no AXL credentials in the lab');
    const agent = new Agent({ keepAlive: true, ca: s.lab.info.caCertPem, maxSockets: 1 });
    const envelope = `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="http://www.cisco.com/AXL/API/15.0"><soapenv:Body><ns:getPhone><name>${PHONE}</name></ns:getPhone></soapenv:Body></soapenv:Envelope>`;
    const auth = `Basic ${Buffer.from(`${creds.user}:${creds.password}`).toString('base64')}`;
    const raw = (): Promise<void> =>
      new Promise((resolve, reject) => {
        const r = request(
          {
            host: '127.0.0.1',
            port: cucm.ports.https,
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
              res.statusCode === 200 && Buffer.concat(chunks).includes(PHONE)
                ? resolve()
                : reject(new Error(`raw POST: HTTP ${res.statusCode}`)),
            );
          },
        );
        r.on('error', reject);
        r.end(envelope);
      });
    const full = async (): Promise<void> => {
      const r = await s.mcp.auditor.call('cucm_axl_call', {
        host: cucm.name,
        operation: 'getPhone',
        args: { name: PHONE },
      });
      if (r.isError) throw new Error(JSON.stringify(r.structuredContent));
    };
    const time = async (fn: () => Promise<void>, n: number, into: number[]): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await fn();
        into.push(performance.now() - t);
      }
    };
    // Warm-up: schema parse, key derivation, JIT, TLS sessions.
    await time(raw, 10, []);
    await time(full, 10, []);
    const out = { raw: [] as number[], full: [] as number[] };
    for (let done = 0; done < CALLS; done += BLOCK) {
      await time(raw, Math.min(BLOCK, CALLS - done), out.raw);
      await time(full, Math.min(BLOCK, CALLS - done), out.full);
    }
    agent.destroy();
    return out;
  } finally {
    await s.stop();
  }
}

async function main(): Promise<void> {
  let verdict = true;
  for (const serviceMs of [0, SERVICE_MS]) {
    process.stdout.write(`lab AXL service time ${serviceMs} ms: measuring ${CALLS} + ${CALLS} calls...\n`);
    const { raw, full } = await measure(serviceMs);
    const row = (name: string, xs: number[]): string =>
      `  ${name.padEnd(28)} p50 ${pct(xs, 50).toFixed(2).padStart(7)} ms   p99 ${pct(xs, 99).toFixed(2).padStart(7)} ms   n=${xs.length}`;
    const ratio = pct(full, 50) / pct(raw, 50);
    const judged = serviceMs === SERVICE_MS && serviceMs > 0;
    process.stdout.write(
      `${row('raw HTTPS SOAP POST', raw)}\n${row('cucm_axl_call (full stack)', full)}\n` +
        `  overhead p50 +${(pct(full, 50) - pct(raw, 50)).toFixed(2)} ms, ratio ${ratio.toFixed(2)}x` +
        (judged ? ` (target <= 2x: ${ratio <= 2 ? 'PASS' : 'FAIL'})` : ' (informative)') +
        '\n',
    );
    if (judged && ratio > 2) verdict = false;
  }
  process.exitCode = verdict ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
