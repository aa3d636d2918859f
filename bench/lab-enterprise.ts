// The enterprise-scale lab (LAB_SCALE=enterprise: 25,000 phones, 20,000 users, 30,000 lines...): how long
// the data takes to generate (the bound is 30 s) and the lab to start, with its memory, then the
// time to read every phone through the server, cucm_axl_call listPhone followed by its cursor and
// executeSQLQuery with a join, against a baseline: a direct AXL client in its own process reading the
// lab with as many pages as the server asked for. min / median / max over --runs.
//   node --import tsx bench/lab-enterprise.ts [--runs 3]
import { parseArgs } from 'node:util';
import { labNode, labTrustedPem, startLab } from '../lab/index.ts';
import { digestLabData, generateLabData } from '../lab/scale/generate.ts';
import type { EnterpriseJob, EnterpriseResult } from './support/enterprise-client.ts';
import { runChild } from './support/proc.ts';
import { startSoakStack } from './support/soak-stack.ts';
import { spread } from './support/stats.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Math.max(1, Number(values.runs));
const out = (line: string): void => void process.stdout.write(`${line}\n`);
const fmt = (xs: number[]): string => {
  const s = spread(xs);
  return `min ${(s.min / 1000).toFixed(2)} s, median ${(s.median / 1000).toFixed(2)} s, max ${(s.max / 1000).toFixed(2)} s`;
};
const rssMb = (): number => Math.round(process.memoryUsage().rss / 1024 / 1024);

const gen: number[] = [];
let digest = '';
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  const data = generateLabData({ scale: 'enterprise', seed: 'uc-lab-1', now: 1_760_000_000 });
  gen.push(performance.now() - t);
  digest = digestLabData(data);
}
out(
  `generation (enterprise data of every node, no listener): ${fmt(gen)} (bound 30 s); digest ${digest.slice(0, 16)}`,
);

const t0 = performance.now();
const alone = await startLab({ scale: 'enterprise', stateDir: '.tmp/lab-state' });
const startMs = performance.now() - t0;
global.gc?.();
out(
  `lab start (startLab, scale enterprise): ${(startMs / 1000).toFixed(2)} s, lab process RSS ${rssMb()} MB`,
);
await alone.stop();

const s = await startSoakStack({ clients: 1, lab: { scale: 'enterprise' } });
try {
  const cucm = labNode(s.lab.info, 'cucm');
  const creds = cucm.credentials.axl;
  if (!creds) throw new Error('no AXL credentials in the lab');
  const base = {
    runs,
    cucmName: cucm.name,
    labTrustPem: labTrustedPem(s.lab.info),
    cucmHttpsPort: cucm.ports.https as number,
    user: creds.user,
    password: creds.password,
  };
  const before = s.lab.state.log.requests.length;
  const mcp = await runChild<EnterpriseResult>('bench/support/enterprise-client.ts', [
    JSON.stringify({
      ...base,
      mode: 'mcp',
      serverUrl: s.url,
      serverCertPem: s.certPem,
      token: (s.clients[0] as { token: string }).token,
    } satisfies EnterpriseJob),
  ]);
  const asked = s.lab.state.log.requests
    .slice(before)
    .filter((r) => r.node === cucm.name && r.service === 'axl');
  const pages = (op: string): number =>
    Math.max(1, Math.round(asked.filter((r) => r.operation === op && r.status === 200).length / runs));
  const listPages = pages('listPhone');
  const sqlPages = pages('executeSQLQuery');
  const raw = await runChild<EnterpriseResult>('bench/support/enterprise-client.ts', [
    JSON.stringify({
      ...base,
      mode: 'raw',
      listPage: Math.ceil(mcp.list.rows / listPages),
      sqlPage: Math.ceil(mcp.sql.rows / sqlPages),
    } satisfies EnterpriseJob),
  ]);
  out(`every phone, listPhone (${mcp.list.rows} rows, ${listPages} AXL pages a read):`);
  out(`  cucm_axl_call + cursor    ${fmt(mcp.list.ms)}`);
  out(`  direct AXL (baseline)     ${fmt(raw.list.ms)}  (${raw.list.rows} rows)`);
  out(
    `every line appearance, executeSQLQuery with a join (${mcp.sql.rows} rows, ${sqlPages} AXL pages a read):`,
  );
  out(`  cucm_axl_call + cursor    ${fmt(mcp.sql.ms)}`);
  out(`  direct AXL (baseline)     ${fmt(raw.sql.ms)}  (${raw.sql.rows} rows)`);
  const server = await s.probe();
  out(`RSS after the reads: lab process ${rssMb()} MB, server ${Math.round(server.rssKb / 1024)} MB`);
} finally {
  await s.stop();
}
