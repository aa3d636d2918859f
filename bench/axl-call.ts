// cucm_axl_call getPhone through the whole stack (MCP over TLS, bearer JWT, RBAC, allowlist, rate
// limit, vault, audit, strong-soap envelope and answer parsing) versus a raw HTTPS SOAP POST of the same
// envelope to the lab, alternating blocks of calls so noise hits both alike. Three processes: the lab
// (this one), the server (bench/support/soak-stack.ts: licensed, vault seeded, schema cached) and the
// client (bench/support/axl-client.ts), so that no two share an event loop.
//
// Two lab settings: the lab answering at once (0 ms: the ratio is then mostly the MCP round trip over
// a sub-millisecond baseline) and a publisher's realistic service time (default 20 ms, --service-ms).
// The p50 added (full minus raw) is the figure; the ratio is printed too.
//   node --import tsx bench/axl-call.ts [--calls 90] [--service-ms 20]
import { parseArgs } from 'node:util';
import { labNode, labTrustedPem } from '../lab/index.ts';
import type { AxlClientJob, AxlClientResult } from './support/axl-client.ts';
import { runChild } from './support/proc.ts';
import { startSoakStack } from './support/soak-stack.ts';
import { percentile } from './support/stats.ts';

const PHONE = 'SEP0A1B2C3D4E01';

export interface AxlCallFigures {
  serviceMs: number;
  rawP50: number;
  fullP50: number;
  rawP99: number;
  fullP99: number;
  addedP50: number;
  n: number;
}

export async function runAxlCall(serviceMs: number, calls: number): Promise<AxlCallFigures> {
  const s = await startSoakStack({ clients: 1, lab: { axlServiceTimeMs: serviceMs } });
  try {
    const cucm = labNode(s.lab.info, 'cucm');
    const creds = cucm.credentials.axl;
    if (!creds) throw new Error('no AXL credentials in the lab');
    const { raw, full } = await runChild<AxlClientResult>('bench/support/axl-client.ts', [
      JSON.stringify({
        serverUrl: s.url,
        serverCertPem: s.certPem,
        token: (s.clients[0] as { token: string }).token,
        labTrustPem: labTrustedPem(s.lab.info),
        cucmName: cucm.name,
        cucmHttpsPort: cucm.ports.https as number,
        user: creds.user,
        password: creds.password,
        phone: PHONE,
        calls,
        block: 15,
      } satisfies AxlClientJob),
    ]);
    const p = (xs: number[], q: number) => percentile(xs, q);
    return {
      serviceMs,
      rawP50: p(raw, 50),
      fullP50: p(full, 50),
      rawP99: p(raw, 99),
      fullP99: p(full, 99),
      addedP50: p(full, 50) - p(raw, 50),
      n: raw.length,
    };
  } finally {
    await s.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { calls: { type: 'string', default: '90' }, 'service-ms': { type: 'string', default: '20' } },
  });
  const calls = Number(values.calls);
  for (const serviceMs of [0, Number(values['service-ms'])]) {
    process.stdout.write(`lab AXL service time ${serviceMs} ms: measuring ${calls} + ${calls} calls...\n`);
    const f = await runAxlCall(serviceMs, calls);
    const row = (name: string, p50: number, p99: number): string =>
      `  ${name.padEnd(28)} p50 ${p50.toFixed(2).padStart(7)} ms   p99 ${p99.toFixed(2).padStart(7)} ms   n=${f.n}`;
    process.stdout.write(
      `${row('raw HTTPS SOAP POST', f.rawP50, f.rawP99)}\n${row('cucm_axl_call (full stack)', f.fullP50, f.fullP99)}\n` +
        `  p50 added +${f.addedP50.toFixed(2)} ms (goal <= +2 ms), ratio ${(f.fullP50 / f.rawP50).toFixed(2)}x\n`,
    );
  }
}

if (process.argv[1] === import.meta.filename) {
  await main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
