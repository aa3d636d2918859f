// `npm run lab`: starts the simulated nodes, prints how to reach them, writes LAB_INFO, stops on a signal.
// LAB_SCALE (small | site | enterprise) and LAB_SEED size the clusters (lab/scale/); LAB_WEAKNESSES
// (ids from lab/weaknesses/, comma-separated) seeds exactly those weaknesses instead of the profile's.
import { chmodSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startLab } from './index.ts';
import { describeSeeded } from './weaknesses/index.ts';
import type { Lab, LabInfo, LabOptions } from './types.ts';

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got ${raw}`);
  return value;
}

function optionsFromEnv(): LabOptions {
  const profile = process.env.LAB_PROFILE;
  if (profile !== undefined && profile !== 'weak' && profile !== 'hardened')
    throw new Error(`LAB_PROFILE must be weak or hardened, got ${profile}`);
  const o: LabOptions = {};
  if (process.env.LAB_HOST) o.host = process.env.LAB_HOST;
  if (profile) o.profile = profile;
  const numbers: [keyof LabOptions, string][] = [
    ['basePort', 'LAB_BASE_PORT'],
    ['loginDelayMs', 'LAB_LOGIN_DELAY_MS'],
    ['extraPhones', 'LAB_EXTRA_PHONES'],
    ['risRateLimitPerMinute', 'LAB_RIS_RATE_LIMIT'],
    ['perfmonRateLimitPerMinute', 'LAB_PERFMON_RATE_LIMIT'],
    ['cdrRateLimitPerMinute', 'LAB_CDR_RATE_LIMIT'],
    ['cdrPushPort', 'LAB_CDR_PUSH_PORT'],
    ['logCollectionRateLimitPerMinute', 'LAB_LOG_COLLECTION_RATE_LIMIT'],
    ['risMaxDevicesPerAnswer', 'LAB_RIS_MAX_DEVICES'],
  ];
  for (const [key, env] of numbers) {
    const v = envNumber(env);
    if (v !== undefined) (o as Record<string, unknown>)[key] = v;
  }
  return o;
}

function describe(info: LabInfo): string {
  const lines = [
    `UC lab (${info.profile} profile, ${info.scale} scale) on ${info.host}`,
    describeSeeded(info.profile, info.weaknesses),
    `HTTPS certificates: ${info.certificates}`,
    '',
  ];
  for (const n of info.nodes) {
    const ports = Object.entries(n.ports)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(
      `${n.product.toUpperCase().padEnd(5)} ${n.name}  ${n.address}  (${ports})${n.model ? `  ${n.model}` : ''}`,
    );
    for (const [what, url] of Object.entries(n.urls)) lines.push(`      ${what.padEnd(10)} ${url}`);
    for (const [kind, c] of Object.entries(n.credentials))
      lines.push(`      ${kind.padEnd(10)} ${c.user} / ${c.password}`);
    if (n.sshHostKeyFingerprint) lines.push(`      ssh key    ${n.sshHostKeyFingerprint}`);
    for (const s of n.subscribers ?? [])
      lines.push(`      subscriber ${s.name}  ${s.address}  (https ${s.ports.https}; serviceability)`);
  }
  return lines.join('\n');
}

// Handlers go in first: a supervisor may signal as soon as it reads the ready line.
const running: { lab?: Lab } = {};
let stopping = false;
const stop = (signal: NodeJS.Signals): void => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the lab`);
  if (!running.lab) return;
  running.lab.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error('lab: stop failed', err);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const started = Date.now();
let lab: Lab;
try {
  lab = await startLab(optionsFromEnv());
} catch (err) {
  // A bad setting (an unknown LAB_WEAKNESSES id, a wrong LAB_PROFILE) is the operator's to fix: its
  // message, not a stack trace.
  console.error(`lab: ${(err as Error).message}`);
  process.exit(2);
}
running.lab = lab;
if (stopping) {
  await lab.stop();
  process.exit(0);
}
const infoPath = resolve(process.env.LAB_INFO ?? 'lab-info.json');
writeFileSync(infoPath, `${JSON.stringify(lab.info, null, 2)}\n`, { mode: 0o600 });
// `mode` applies to a new file only: a LAB_INFO left readable by an earlier run is tightened too.
chmodSync(infoPath, 0o600);
console.log(describe(lab.info));
console.log(`\nStarted in ${Date.now() - started} ms. Node details and the lab CA: ${infoPath}`);
console.log('Press Ctrl-C to stop.');
