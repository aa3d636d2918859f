import { mkdirSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { AuditLog } from '../audit/audit-log.ts';
import { loadConfig } from '../config/load.ts';
import { buildApp, type RouteInstaller } from '../http/app.ts';
import { createHttpsServer, type HttpsServerHandle } from '../http/server.ts';
import { ensureServerKeys } from '../keys/rsa-keys.ts';
import { createAppLog } from '../logging/app-log.ts';
import { Metrics } from '../metrics/metrics.ts';
import { PACKAGE_VERSION, PROJECT_ROOT, statePaths } from '../paths.ts';
import { syncDefaultProfiles } from '../profiles/sync.ts';
import type { KernelRuntime } from '../runtime.ts';
import { ensureTlsCertificate } from '../tls/certificate.ts';
import { WatchdogRunner } from '../watchdogs/runner.ts';
import { tlsRenewalWatchdog } from '../tls/renewal-watchdog.ts';
import { runStep, type StepReport } from './steps.ts';

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Extra routes (OAuth, /status, /mcp) added by later parts of the kernel. */
  installers?: RouteInstaller[];
}

export interface RunningKernel {
  runtime: KernelRuntime;
  port: number;
  url: string;
  steps: StepReport[];
  /** Stops watchdogs, closes the server, writes the SERVER shutdown record, closes the logs. */
  stop(signal: 'SIGTERM' | 'SIGINT' | 'shutdown'): Promise<void>;
}

/** The spec's startup sequence (functional-spec.md, Server lifecycle), each step after the previous. */
export async function startKernel(opts: StartOptions = {}): Promise<RunningKernel> {
  const steps: StepReport[] = [];

  // Step 1 runs before logging exists; its report is logged as soon as step 2 is done.
  const t1 = performance.now();
  const loaded = loadConfig(opts.env ?? process.env);
  const { config } = loaded;
  const paths = statePaths(loaded.stateDir);
  steps.push({ step: 1, name: 'configuration', outcome: 'ok', ms: Math.round(performance.now() - t1) });

  const t2 = performance.now();
  mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  const appLog = createAppLog(paths.appLog, config);
  const log = appLog.logger;
  const audit = new AuditLog({
    path: paths.auditLog,
    maxBytes: config.LOGGING_ROTATE_SIZE,
    maxFiles: config.LOGGING_ROTATE_FILES,
    fsync: config.AUDIT_FSYNC,
  });
  steps.push({ step: 2, name: 'logging', outcome: 'ok', ms: Math.round(performance.now() - t2) });
  for (const s of steps) log.info({ startup: s }, `startup step ${s.step} ${s.name}: ${s.outcome}`);
  log.info(
    { envFile: loaded.envFile ?? '(none: embedded defaults)', stateDir: paths.root },
    'configuration loaded',
  );
  if (loaded.unknownKeys.length > 0)
    log.warn({ keys: loaded.unknownKeys }, '.env has keys this server does not use');

  const metrics = new Metrics();
  const watchdogs = new WatchdogRunner(log, metrics);

  try {
    await runStep(log, steps, 3, 'rbac-profiles', () => {
      const r = syncDefaultProfiles(join(PROJECT_ROOT, 'profiles', '_default'), paths.profiles);
      return { outcome: 'ok', detail: { copied: r.copied, kept: r.kept } };
    });
    await runStep(log, steps, 4, 'integrity', () => ({
      outcome: 'deferred',
      detail: { reason: 'integrity manifest verification arrives with the plugin bundles (issue 4)' },
    }));
    let tls!: KernelRuntime['tls'];
    await runStep(log, steps, 5, 'tls-certificate', () => {
      tls = ensureTlsCertificate(config, paths);
      return {
        outcome: 'ok',
        detail: {
          source: tls.source,
          notAfter: tls.notAfter.toISOString(),
          fingerprint256: tls.fingerprint256,
        },
      };
    });
    let keys!: KernelRuntime['keys'];
    await runStep(log, steps, 6, 'rsa-keys', async () => {
      keys = await ensureServerKeys(paths);
      return { outcome: 'ok', detail: { source: keys.source, kid: keys.kid } };
    });
    await runStep(log, steps, 7, 'clients', () => ({
      outcome: 'deferred',
      detail: { reason: 'client synchronisation from AUTH_CLIENTS arrives with OAuth (issue 3)' },
    }));
    await runStep(log, steps, 8, 'license', () => ({
      outcome: 'deferred',
      detail: { reason: 'license verification arrives with the license gate (issue 4)' },
    }));
    await runStep(log, steps, 9, 'product-modules', () => ({
      outcome: 'deferred',
      detail: { reason: 'plugin bundles arrive with the MCP endpoint (issue 4)', loaded: [] },
    }));

    const runtime: KernelRuntime = {
      config,
      loaded,
      paths,
      log,
      audit,
      metrics,
      watchdogs,
      tls,
      keys,
      startedAt: new Date(),
      license: {
        state: 'INVALID',
        tier: null,
        expiresAt: null,
        products: [],
        reason: 'license verification not built yet',
      },
      modules: [],
      lastBackup: null,
      publicBaseUrl: config.PUBLIC_BASE_URL,
    };

    let https!: HttpsServerHandle;
    await runStep(log, steps, 10, 'watchdogs', () => {
      watchdogs.register(tlsRenewalWatchdog(runtime, (m) => https.setCertificate(m)));
      watchdogs.start();
      return { outcome: 'ok', detail: { watchdogs: watchdogs.states().map((s) => s.name) } };
    });

    let port = 0;
    await runStep(log, steps, 11, 'https-server', async () => {
      // The app needs the bound port for its Host/Origin policy; listen first, attach the app after.
      let handler: RequestListener = (_req, res) => {
        res.statusCode = 503;
        res.end();
      };
      https = createHttpsServer(
        tls,
        (req, res) => {
          handler(req, res);
        },
        { config, audit, log, metrics },
      );
      port = await listen(https, config.SERVER_HOST, config.SERVER_PORT);
      runtime.publicBaseUrl = config.PUBLIC_BASE_URL || `https://${urlHost(config.SERVER_HOST)}:${port}`;
      const callback = buildApp(runtime, port, opts.installers).callback();
      handler = (req, res) => void callback(req, res);
      return { outcome: 'ok', detail: { host: config.SERVER_HOST, port, url: runtime.publicBaseUrl } };
    });

    audit.write({
      event: 'SERVER',
      status: 'STARTUP_COMPLETE',
      version: PACKAGE_VERSION,
      modules: [],
      client_count: 0,
      url: runtime.publicBaseUrl,
    });
    log.info({ url: runtime.publicBaseUrl, version: PACKAGE_VERSION }, 'server started');

    let stopping: Promise<void> | undefined;
    return {
      runtime,
      port,
      url: runtime.publicBaseUrl,
      steps,
      stop(signal) {
        stopping ??= (async () => {
          audit.write({ event: 'SERVER', status: 'SHUTDOWN_INITIATED', signal });
          log.info({ signal }, 'shutdown initiated');
          await watchdogs.stop();
          await https.close(config.SHUTDOWN_GRACE_MS);
          audit.write({ event: 'SERVER', status: 'SHUTDOWN_COMPLETE', signal });
          log.info({ signal }, 'shutdown complete');
          await audit.close();
          await appLog.close();
        })();
        return stopping;
      },
    };
  } catch (err) {
    await watchdogs.stop();
    await audit.close();
    await appLog.close();
    throw err;
  }
}

function listen(handle: HttpsServerHandle, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    handle.server.once('error', reject);
    handle.server.listen(port, host, () => {
      handle.server.off('error', reject);
      const addr = handle.server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
