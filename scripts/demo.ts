// `npm run demo`: the lab of simulated nodes and a server wired to it, signed and licensed by a
// throw-away demo vendor. Prints how to connect an MCP client; writes STATE_DIR/demo.json.
// Settings: STATE_DIR (default .demo/state), DEMO_DIR (default .demo), SERVER_PORT (default 8443),
// LAB_PROFILE (weak | hardened), LAB_WEAKNESSES (weakness ids, comma-separated: exactly those seeded),
// LAB_CERTIFICATES (self-signed | lab-ca), LAB_SCALE (small | site | enterprise) and LAB_SEED, read by
// the lab itself. Stops cleanly on Ctrl-C / SIGTERM.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startLab, type LabInfo, type LabNodeInfo } from '../lab/index.ts';
import { describeSeeded } from '../lab/weaknesses/index.ts';
import { prepareSignedInstall } from '../lab/demo/signed-install.ts';
import { prefetchSchemas } from '../lab/demo/prefetch-schemas.ts';
import { seedVault } from '../lab/demo/seed-vault.ts';
import { startServerProcess } from '../lab/demo/server-process.ts';
import { demoClientInstructions } from '../lab/demo/client-commands.ts';
import { trustInstructions } from '../lab/demo/trust-commands.ts';
import { shellWord } from '../lab/demo/shell-word.ts';
import { PROJECT_ROOT } from '../kernel/paths.ts';

const DEMO_ADMIN = 'demo-admin';
const DEMO_CLIENTS = [
  { name: DEMO_ADMIN, profile: 'admin' },
  { name: 'demo-operator', profile: 'operator' },
  { name: 'demo-auditor', profile: 'auditor' },
];

/**
 * A file holding lab passwords (lab-info.json, demo.json): 0600 when created, and tightened when an
 * earlier run (or an older version) left it readable by others; its folder 0700 when the demo makes it.
 */
function writePrivate(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

const step = (n: number, total: number, what: string): void => {
  process.stdout.write(`[${n}/${total}] ${what}\n`);
};

async function main(): Promise<void> {
  const demoDir = resolve(process.env.DEMO_DIR || join(PROJECT_ROOT, '.demo'));
  const stateDir = resolve(process.env.STATE_DIR || join(demoDir, 'state'));
  const port = process.env.SERVER_PORT || '8443';
  mkdirSync(demoDir, { recursive: true, mode: 0o700 });
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });

  step(1, 5, 'signing a demo install and issuing a demo license');
  const install = await prepareSignedInstall({ projectRoot: PROJECT_ROOT, demoDir, stateDir });

  step(2, 5, 'starting the lab (CUCM, IM&P, Unity Connection, phones, VOS CLI)');
  const profile = process.env.LAB_PROFILE === 'hardened' ? 'hardened' : 'weak';
  const lab = await startLab({ stateDir: join(demoDir, 'lab'), profile });
  writePrivate(
    process.env.LAB_INFO || join(stateDir, 'lab-info.json'),
    `${JSON.stringify(lab.info, null, 2)}\n`,
  );

  step(3, 5, 'storing the lab credentials for the demo clients');
  // The admin's credentials pin no HTTPS certificate: its first call to a node meets the node's
  // self-signed certificate as on a real cluster, and it decides with <product>_trust_certificate. The
  // operator and the auditor, who may not decide, get each node's certificate pinned.
  const stored = await seedVault(
    stateDir,
    DEMO_CLIENTS.map((c) => c.name),
    lab.info,
    { firstContact: [DEMO_ADMIN], subscribers: true },
  );

  step(4, 5, 'downloading the AXL and RIS schemas from the lab into the schema cache');
  const schemas = await prefetchSchemas(stateDir, lab.info);

  step(5, 5, `starting the server (${install.files} signed files, enforce mode)`);
  const server = startServerProcess(install.installDir, {
    ...process.env,
    STATE_DIR: stateDir,
    ENV_FILE: '',
    SERVER_PORT: port,
    INTEGRITY_MODE: 'enforce',
    AUTH_CLIENTS: DEMO_CLIENTS.map((c) => `${c.name}:${c.profile}:cucm+imp+cuc`).join(','),
    // The lab's nodes all listen on loopback; nothing else is a node here.
    NODE_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
    LOGGING_CONSOLE_ENABLED: '0',
  });
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    server.child.kill('SIGTERM');
    await new Promise((r) => (server.child.exitCode !== null ? r(null) : server.child.once('exit', r)));
    await lab.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  let url: string;
  try {
    url = await server.url;
  } catch (err) {
    await lab.stop();
    throw err;
  }
  server.child.on('exit', (code) => {
    if (stopping) return;
    process.stderr.write(`the server stopped unexpectedly (code ${code})\n`);
    void lab.stop().then(() => process.exit(1));
  });

  const cert = join(stateDir, 'secrets', 'tls_cert.pem');
  const clients = DEMO_CLIENTS.map((c) => ({
    ...c,
    products: ['cucm', 'imp', 'cuc'],
    token_file: join(stateDir, 'clients', c.name, 'secrets', '.token'),
  }));
  const demo = {
    server: {
      url,
      mcp: `${url}/mcp`,
      tls_certificate: cert,
      ca_certificate: join(stateDir, 'secrets', 'ca_cert.pem'),
    },
    clients,
    credentials_stored: stored,
    schemas_cached: schemas,
    lab: lab.info,
  };
  writePrivate(join(stateDir, 'demo.json'), `${JSON.stringify(demo, null, 2)}\n`);

  const admin = clients[0]?.token_file ?? '';
  // The install's own `ucmcp` bin: its kernel is the signed copy, so it checks that copy's manifest.
  const cli = `node ${shellWord(join(install.installDir, 'kernel', 'cli', 'ucmcp.mjs'))}`;
  const caFile = join(stateDir, 'secrets', 'ca_cert.pem');
  const connect = demoClientInstructions({
    mcpUrl: `${url}/mcp`,
    tokenFile: admin,
    clientName: clients[0]?.name ?? '',
    clientSecretFile: join(stateDir, 'clients', clients[0]?.name ?? '', 'secrets', '.client_secret'),
    caCert: existsSync(caFile) ? caFile : cert,
    // The Inspector CLI 1.0.3 needs a package.json in the parent of its working directory.
    inspectorCwd: join(PROJECT_ROOT, 'scripts'),
  });
  process.stdout.write(`
uc-mcp-server demo is running.

  MCP endpoint   ${url}/mcp
  CA certificate ${caFile}   (what clients trust: the server's certificate is issued from it)
  Clients        ${clients.map((c) => `${c.name} (${c.profile})`).join(', ')}
  Tokens         ${join(stateDir, 'clients', '<name>', 'secrets', '.token')}
  Lab            ${servers(lab.info)
    .map((n) => `${n.name} ${n.address}`)
    .join(', ')} and ${lab.info.nodes.filter((n) => n.product === 'phone').length} phones (${profile} profile)
  Weaknesses     ${describeSeeded(lab.info.profile, lab.info.weaknesses)}
  Details        ${join(stateDir, 'demo.json')}
${certificateLines(lab.info)}

${trustInstructions(caFile)}
${connect}
Operator CLI for this demo (its signed install and state; run from the checkout, the CLI would look at
the checkout's unsigned tree and state instead):
  ${cli} license_checker --state-dir ${shellWord(stateDir)}
  ${cli} update_manifest --check

Then call infra_init_session first. Ctrl-C stops the server and the lab.
`);
}

/**
 * What the admin compares the first-contact refusal with: each node's HTTPS certificate fingerprint, as
 * `show cert own tomcat/tomcat.pem` on the node would let an operator check it.
 */
function certificateLines(info: LabInfo): string {
  const nodes = servers(info).filter((n) => n.certFingerprint);
  const rows = nodes.map((n) => `    ${n.name.padEnd(10)} ${n.certFingerprint ?? ''}`).join('\n');
  return `  HTTPS certs    ${info.certificates}; ${DEMO_ADMIN}'s first call to a node reports its certificate:
                 compare, then <product>_trust_certificate (the other clients have them pinned)
${rows}`;
}

/** The lab's servers, each publisher followed by its other nodes (subscribers, Connection's secondary). */
function servers(info: LabInfo): LabNodeInfo[] {
  return info.nodes.filter((n) => n.product !== 'phone').flatMap((n) => [n, ...(n.subscribers ?? [])]);
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${(err as Error).message}\n`);
  process.exit(1);
});
