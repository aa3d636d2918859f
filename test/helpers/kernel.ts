import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteInstaller } from '../../kernel/http/app.ts';
import { startKernel, type RunningKernel } from '../../kernel/lifecycle/startup.ts';
import type { NodeResolver } from '../../kernel/net/node-address-policy.ts';
import { pinnedFetch } from './https-client.ts';
import { tableResolver } from './node-resolver.ts';
import { seedServerKeys } from './keys.ts';
import { tempStateDir } from './state-dir.ts';
import { testVendor, writeTestLicense, type TestLicense } from './license.ts';

export const FIXTURE_PLUGINS = join(import.meta.dirname, '..', 'fixtures', 'plugins');

export interface TestKernel {
  kernel: RunningKernel;
  url: string;
  stateDir: string;
  /** The certificate chain the server serves (secrets/tls_cert.pem: its leaf, then its local CA). */
  certPem: string;
  /** What a user trusts: the server's local CA (secrets/ca_cert.pem), the only anchor `fetch` trusts. */
  caPem: string;
  fetch: ReturnType<typeof pinnedFetch>;
  auditRecords(): Record<string, unknown>[];
  stop(): Promise<void>;
}

/**
 * Starts the real kernel in-process on 127.0.0.1:0 with a fresh state directory (server key pair
 * seeded from the test cache unless `seedKeys` is false). `env` adds or overrides settings.
 */
export async function startTestKernel(
  opts: {
    env?: Record<string, string>;
    installers?: RouteInstaller[];
    stateDir?: string;
    seedKeys?: boolean;
    /** Add the kernel test fixture plugins (test-product, test-common). */
    fixturePlugins?: boolean;
    /** Further folders of plugin bundles (e.g. the MCP conformance fixture). */
    extraPluginDirs?: string[];
    clock?: () => number;
    /** Write a license signed by the test vendor and trust that vendor. */
    license?: TestLicense;
    /** How node names resolve (default: `localhost` only, nothing asked of the network). */
    nodeResolver?: NodeResolver;
    /** CA (PEM) the kernel trusts for client metadata document fetches (a loopback HTTPS server's). */
    clientMetadataCa?: string;
  } = {},
): Promise<TestKernel> {
  const temp = opts.stateDir ? undefined : tempStateDir();
  const stateDir = opts.stateDir ?? (temp as { dir: string }).dir;
  if (opts.seedKeys !== false) seedServerKeys(stateDir);
  if (opts.license) await writeTestLicense(stateDir, opts.license);
  const env: NodeJS.ProcessEnv = {
    STATE_DIR: stateDir,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: '0',
    LOGGING_CONSOLE_ENABLED: '0',
    ENV_FILE: '',
    // A development checkout is unsigned: load its bundles, still reporting the check (the demo and the
    // integrity tests exercise enforce mode on a signed tree).
    INTEGRITY_MODE: 'warn',
    ...opts.env,
  };
  const kernel = await startKernel({
    env,
    ...(opts.installers ? { installers: opts.installers } : {}),
    extraPluginDirs: [...(opts.fixturePlugins ? [FIXTURE_PLUGINS] : []), ...(opts.extraPluginDirs ?? [])],
    ...(opts.clock ? { clock: opts.clock } : {}),
    extraPublisherKeys: [testVendor().publisherKey],
    nodeResolver: opts.nodeResolver ?? tableResolver(),
    ...(opts.clientMetadataCa ? { clientMetadataCa: opts.clientMetadataCa } : {}),
  });
  const certPem = readFileSync(join(stateDir, 'secrets', 'tls_cert.pem'), 'utf8');
  // An operator-configured certificate (TLS_CERT_FILE) comes without a local CA.
  const caFile = join(stateDir, 'secrets', 'ca_cert.pem');
  const caPem = existsSync(caFile) && !env.TLS_CERT_FILE ? readFileSync(caFile, 'utf8') : certPem;
  const fetch = pinnedFetch(caPem);
  return {
    kernel,
    url: kernel.url,
    stateDir,
    certPem,
    caPem,
    fetch,
    auditRecords: () => readAudit(stateDir),
    async stop() {
      await kernel.stop('shutdown');
      await fetch.close();
      temp?.cleanup();
    },
  };
}

/**
 * The audit records of a state directory: logs/audit.log, or with a shared state store (one audit file
 * per instance, audit.log-<instance>) those of `instance`, or of every instance one after the other.
 */
export function readAudit(stateDir: string, instance?: string): Record<string, unknown>[] {
  const logs = join(stateDir, 'logs');
  const files =
    instance !== undefined
      ? [`audit.log-${instance}`]
      : existsSync(join(logs, 'audit.log'))
        ? ['audit.log']
        : readdirSync(logs)
            // Rotated archives (…<stamp>.0001, .gz) and interrupted writes (.tmp) are not the current file.
            .filter((f) => f.startsWith('audit.log-') && !/\.\d{4}(\.gz)?$|\.tmp$/.test(f))
            .sort();
  const text = files.map((f) => readFileSync(join(logs, f), 'utf8')).join('');
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The ACTIONS outcome records (one per tool call; a call that ran also has a STARTED record before it). */
export function actionOutcomes(records: Record<string, unknown>[]): Record<string, unknown>[] {
  return records.filter((r) => r.event === 'ACTIONS' && r.result !== undefined);
}
