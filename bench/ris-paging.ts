// RisPort70 paging benchmark: every device of a 5,000-phone cluster through RisService (StateInfo paging,
// parsing, normalisation, de-duplication across nodes, the cluster rate window) against a baseline
// measured in the same run: the same pages as raw SOAP POSTs on a keep-alive agent, StateInfo cut out with
// a regular expression, nothing parsed. The lab enforces the node's 15 requests per minute; its window is
// reset between runs (a real cluster would need a minute's pause instead).
// Exit code 1 unless every device comes back exactly once within 15 requests.
// Run: node --import tsx bench/ris-paging.ts   (PHONES, RUNS override the defaults)
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labNode, labTlsPin, startLab } from '../lab/index.ts';
import { extraPhoneName } from '../lab/cucm/topology.ts';
import type { NodeEndpoint } from '../plugins/_shared/axl/transport.ts';
import { buildSelectEnvelope, DEFAULT_CRITERIA } from '../plugins/cucm/ris/envelope.ts';
import type { RisAnswer } from '../plugins/cucm/ris/ris-service.ts';
import { RisService } from '../plugins/cucm/ris/ris-service.ts';

const PHONES = Number(process.env.PHONES ?? 5000);
const RUNS = Number(process.env.RUNS ?? 3);
const PER_ANSWER = 1000;
const NODE_LIMIT = 15;
const PATH = '/realtimeservice2/services/RISService70';

const dir = mkdtempSync(join(tmpdir(), 'ucmcp-ris-bench-'));
const t0 = performance.now();
const lab = await startLab({
  stateDir: join(import.meta.dirname, '..', '.tmp', 'lab-state'),
  extraPhones: PHONES,
  risMaxDevicesPerAnswer: PER_ANSWER,
  risRateLimitPerMinute: NODE_LIMIT,
});
const labStartMs = performance.now() - t0;

let failed = false;
const check = (ok: boolean, what: string): void => {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
};

try {
  const cucm = labNode(lab.info, 'cucm');
  const creds = cucm.credentials.axl;
  if (!creds) throw new Error('the lab CUCM has no AXL credentials');
  const node: NodeEndpoint = {
    host: '127.0.0.1',
    port: cucm.ports.https as number,
    username: creds.user,
    password: creds.password,
    ...labTlsPin(lab.info, cucm),
  };
  // The WSDL download is not timed: it happens once per installation.
  await new RisService({ schemaCache: dir, downloadTool: 'cucm_download_ris_toolkit' }).downloadFrom(node);

  const baseline: { ms: number; pages: number; records: number }[] = [];
  const service: { ms: number; answer: RisAnswer; rssMb: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    lab.state.cucm.ris.window.reset();
    baseline.push(await rawPages(node));
    lab.state.cucm.ris.window.reset();
    // A fresh service per run: its own cluster window, as a server just started would have.
    const ris = new RisService({ schemaCache: dir, downloadTool: 'cucm_download_ris_toolkit' });
    const t = performance.now();
    const answer = await ris.queryEndpoint(
      node,
      { operation: 'selectCmDeviceExt', maxDevices: 50_000, maxRequests: NODE_LIMIT },
      { owner: 'bench' },
    );
    service.push({ ms: performance.now() - t, answer, rssMb: process.memoryUsage().rss / 1024 / 1024 });
    ris.close();
  }

  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const baseMs = median(baseline.map((b) => b.ms));
  const ourMs = median(service.map((s) => s.ms));
  const last = service.at(-1)?.answer;
  if (!last) throw new Error('no run');
  const expectedDevices = PHONES + 4 + 1;
  const expectedRecords = PHONES + Math.floor(PHONES / 10) + 5 + 2;

  console.log(
    `RisPort70 paging: ${PHONES} bulk phones, ${PER_ANSWER} records per answer, node limit ${NODE_LIMIT}/min, ${RUNS} runs (median), lab start ${(labStartMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `${'what'.padEnd(58)} ${'ms'.padStart(8)} ${'requests'.padStart(9)} ${'records'.padStart(8)} ${'devices'.padStart(8)}`,
  );
  const row = (what: string, ms: number, requests: number, records: number, devices: number | string): void =>
    console.log(
      `${what.padEnd(58)} ${ms.toFixed(0).padStart(8)} ${String(requests).padStart(9)} ${String(records).padStart(8)} ${String(devices).padStart(8)}`,
    );
  const b0 = baseline[0] as { pages: number; records: number };
  row('baseline: raw SOAP POSTs, StateInfo by regex, no parsing', baseMs, b0.pages, b0.records, '-');
  row(
    'RisService: paging, parsing, de-duplication, rate window',
    ourMs,
    last.requests,
    last.records_read,
    last.devices_returned,
  );
  console.log(
    `overhead: ${(ourMs / baseMs).toFixed(2)}x baseline, ${((ourMs - baseMs) / last.requests).toFixed(0)} ms per page for parsing and merging; ${(ourMs / last.devices_returned).toFixed(3)} ms per device; rss ${Math.max(...service.map((s) => s.rssMb)).toFixed(0)} MB`,
  );
  console.log(
    `runs (ms): baseline ${baseline.map((b) => b.ms.toFixed(0)).join(', ')}; RisService ${service.map((s) => s.ms.toFixed(0)).join(', ')}`,
  );

  for (const [i, s] of service.entries()) {
    const a = s.answer;
    const names = a.devices.map((d) => d.name);
    const unique = new Set(names);
    const missing = Array.from({ length: PHONES }, (_, k) => extraPhoneName(k + 1)).filter(
      (n) => !unique.has(n),
    );
    check(
      a.complete && a.state_info === undefined,
      `run ${i + 1}: complete, no cursor (${a.stopped_because ?? 'done'})`,
    );
    check(
      a.requests <= NODE_LIMIT,
      `run ${i + 1}: ${a.requests} requests <= ${NODE_LIMIT} (the node's limit)`,
    );
    check(
      a.records_read === expectedRecords,
      `run ${i + 1}: ${a.records_read} records read = ${expectedRecords}`,
    );
    check(
      names.length === unique.size && unique.size === expectedDevices && missing.length === 0,
      `run ${i + 1}: ${names.length} devices, each once, none missing (${missing.length} missing, expected ${expectedDevices})`,
    );
  }
  check(
    baseline.every((b) => b.records === expectedRecords),
    'baseline read the same records (same pages)',
  );
} finally {
  await lab.stop();
  rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;

/** The least a client can do: POST, cut the StateInfo out, POST again until the totals say done. */
async function rawPages(node: NodeEndpoint): Promise<{ ms: number; pages: number; records: number }> {
  const agent = new Agent({ keepAlive: true, ca: node.caCertPem ?? node.certPem });
  const auth = `${node.username}:${node.password}`;
  const t = performance.now();
  let stateInfo = '';
  let pages = 0;
  let records = 0;
  try {
    for (;;) {
      const body = buildSelectEnvelope(
        'selectCmDeviceExt',
        { ...DEFAULT_CRITERIA, maxReturnedDevices: PER_ANSWER },
        stateInfo,
      );
      const text = await post(node, agent, auth, body);
      pages++;
      // One TimeStamp per CmDevice record: counting them is the cheapest honest record count.
      records += text.match(/<(?:\w+:)?TimeStamp>/g)?.length ?? 0;
      const raw = /<(?:\w+:)?StateInfo>([\s\S]*?)<\/(?:\w+:)?StateInfo>/.exec(text)?.[1] ?? '';
      stateInfo = raw
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
      const totals = [...stateInfo.matchAll(/TotalItemsFound="(\d+)" TotalItemsReturned="(\d+)"/g)];
      if (totals.length === 0 || totals.every((m) => Number(m[2]) >= Number(m[1])) || pages > NODE_LIMIT)
        break;
    }
  } finally {
    agent.destroy();
  }
  return { ms: performance.now() - t, pages, records };
}

function post(node: NodeEndpoint, agent: Agent, auth: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: node.host,
        port: node.port,
        path: PATH,
        method: 'POST',
        agent,
        auth,
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"selectCmDeviceExt"' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) resolve(text);
          else reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
