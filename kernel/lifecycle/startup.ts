import { mkdirSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { AuditLog } from '../audit/audit-log.ts';
import { authHousekeepingWatchdog } from '../auth/housekeeping-watchdog.ts';
import { createAuthServices } from '../auth/services.ts';
import { writeStartupTokens } from '../clients/startup-tokens.ts';
import { startupTokenWatchdog } from '../clients/startup-token-watchdog.ts';
import { syncClients } from '../clients/sync.ts';
import { loadConfig } from '../config/load.ts';
import { buildApp, type RouteInstaller } from '../http/app.ts';
import { authRoutes } from '../http/routes/oauth/index.ts';
import { createHttpsServer, type HttpsServerHandle } from '../http/server.ts';
import { ensureServerKeys } from '../keys/rsa-keys.ts';
import { createAppLog } from '../logging/app-log.ts';
import { Metrics } from '../metrics/metrics.ts';
import { PACKAGE_VERSION, PROJECT_ROOT, statePaths } from '../paths.ts';
import { syncDefaultProfiles } from '../profiles/sync.ts';
import type { KernelRuntime } from '../runtime.ts';
import { removeInterruptedWrites } from '../store/leftovers.ts';
import { instanceLogPath, instanceId } from '../store/backend/instance-id.ts';
import { openStateBackend } from '../store/backend/open-backend.ts';
import { singletonJob, withLease } from '../store/backend/singleton-job.ts';
import { shareChangeNotices } from '../store/backend/change-notices.ts';
import type { StateBackend } from '../store/backend/state-backend.ts';
import { ensureTlsCertificate } from '../tls/certificate.ts';
import { logLocalCa } from '../tls/log-local-ca.ts';
import { WatchdogRunner } from '../watchdogs/runner.ts';
import { Vault } from '../vault/index.ts';
import { IntegrityChecker, integrityVerdict, type PublisherKey } from '../integrity/index.ts';
import { LicenseGate } from '../license/index.ts';
import { fullStatusReport } from '../status/report.ts';
import { requireBearer } from '../http/middleware/bearer-auth.ts';
import { loadModules, openProfiles, type McpKernel } from './mcp-wiring.ts';
import type { ProfileStore } from '../rbac/profile-store.ts';
import { tlsRenewalWatchdog } from '../tls/renewal-watchdog.ts';
import { profilesDifferingFromDefaults } from './profile-drift.ts';
import { runStep, type StepReport } from './steps.ts';
import { NodeAddressPolicy, type NodeResolver } from '../net/node-address-policy.ts';
import { backupWatchdog } from '../backup/watchdog.ts';
import { removePidFile, writePidFile } from '../backup/server-process.ts';

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Extra routes (OAuth, /status, /mcp) added by later parts of the kernel. */
  installers?: RouteInstaller[];
  /** Time source for expiry decisions (tests move it forward); defaults to Date.now. */
  clock?: () => number;
  /** Extra plugin bundle folders beside plugins/ (tests). */
  extraPluginDirs?: string[];
  /**
   * Publisher keys trusted in addition to those a valid signed manifest vouches for. Only code can pass
   * this (tests that issue licenses in-process); no setting or file reaches it.
   */
  extraPublisherKeys?: PublisherKey[];
  /**
   * Name resolution of connections to managed nodes (tests: one that answers without the network).
   * Only code can pass this; the system resolver otherwise.
   */
  nodeResolver?: NodeResolver;
  /**
   * CA certificates (PEM) trusted for client metadata document fetches instead of Node's default trust
   * (tests serve documents from a loopback HTTPS server). Only code can pass this.
   */
  clientMetadataCa?: string;
}

export interface RunningKernel {
  runtime: KernelRuntime;
  /** Plugins, tool runner, MCP sessions. */
  mcp: McpKernel;
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
  // With a shared store the state directory is shared: each instance keeps its own log files.
  const appLog = createAppLog(instanceLogPath(paths.appLog, config), config);
  const log = appLog.logger;
  const instance = instanceId(config);
  const audit = new AuditLog({
    // With a shared store the state directory is shared: each instance keeps its own audit file.
    path: instanceLogPath(paths.auditLog, config),
    instance,
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
  const interrupted = removeInterruptedWrites(paths);
  if (interrupted.length > 0)
    log.warn({ files: interrupted }, 'removed temporary files of writes a crash interrupted');

  const metrics = new Metrics();
  const watchdogs = new WatchdogRunner(log, metrics);
  // What a failed start must close again, newest first, so an in-process start never leaves handles open.
  const cleanups: (() => Promise<void>)[] = [];

  try {
    let profiles!: ProfileStore;
    await runStep(log, steps, 3, 'rbac-profiles', async () => {
      const defaults = join(PROJECT_ROOT, 'profiles', '_default');
      const r = syncDefaultProfiles(defaults, paths.profiles);
      const differing = profilesDifferingFromDefaults(defaults, paths.profiles, r.kept);
      if (differing.length > 0)
        log.warn(
          { profiles: differing },
          `live profiles differ from the shipped defaults and were kept (never overwritten): ${differing.join(', ')}; ` +
            'compare them with profiles/_default/ (its README.md states the least-privilege rule)',
        );
      const opened = await openProfiles({ paths, log });
      profiles = opened.store;
      cleanups.push(() => profiles.close());
      return {
        outcome: 'ok',
        detail: {
          copied: r.copied,
          kept: r.kept,
          differing,
          loaded: opened.loaded,
          rejected: opened.rejected,
        },
      };
    });
    const clock = opts.clock ?? Date.now;
    const integrity = new IntegrityChecker({
      root: PROJECT_ROOT,
      mode: config.INTEGRITY_MODE,
      audit,
      log,
      intervalHours: config.INTEGRITY_CHECK_HOURS,
      clock,
    });
    // Registered before step 4 (armed only at step 10): the start's check, and every on-demand one, is
    // a run of this watchdog, so its state and gauge say at once what the last check found.
    watchdogs.register(integrity.watchdog());
    integrity.onReport((r) =>
      watchdogs.record(
        'integrity',
        r.status === 'valid' ? undefined : `integrity check: ${r.status}${r.reason ? ` (${r.reason})` : ''}`,
      ),
    );
    await runStep(log, steps, 4, 'integrity', async () => {
      const r = await integrity.check();
      // The server keeps going whatever the verdict (a failed check is a CRITICAL record), but the step
      // says what was found: ok, warn (unsigned in warn mode) or failed.
      return {
        outcome: integrityVerdict(r.status, config.INTEGRITY_MODE),
        detail: {
          status: r.status,
          mode: config.INTEGRITY_MODE,
          filesChecked: r.filesChecked,
          ms: r.durationMs,
        },
      };
    });
    let tls!: KernelRuntime['tls'];
    await runStep(log, steps, 5, 'tls-certificate', () => {
      tls = ensureTlsCertificate(config, paths);
      logLocalCa(log, paths, tls);
      return {
        outcome: 'ok',
        detail: {
          source: tls.source,
          notAfter: tls.notAfter.toISOString(),
          fingerprint256: tls.fingerprint256,
          ...(tls.localCa
            ? { localCa: tls.localCa.event, caFingerprint256: tls.localCa.fingerprint256 }
            : {}),
        },
      };
    });
    let keys!: KernelRuntime['keys'];
    await runStep(log, steps, 6, 'rsa-keys', async () => {
      keys = await ensureServerKeys(paths);
      const tightened = keys.tightenedFrom ? { mode_was: keys.tightenedFrom, mode_now: '600' } : {};
      return { outcome: 'ok', detail: { source: keys.source, kid: keys.kid, ...tightened } };
    });
    let auth!: KernelRuntime['auth'];
    let clients!: KernelRuntime['clients'];
    let vault!: Vault;
    let state!: StateBackend;
    await runStep(log, steps, 7, 'clients', async () => {
      // The state the instances share comes first: the clients' authentication state lives in it. Here
      // rather than earlier because the store's password is decrypted with step 6's private key.
      state = await openStateBackend(config, { privateKey: keys.privateKey, log, clock });
      cleanups.push(() => state.close());
      metrics.reportStateStoreWith(() => state.status().available);
      auth = await createAuthServices({
        config,
        state,
        paths,
        keys,
        audit,
        metrics,
        windows: state.windows,
        // The issuer is known once step 11 has the port; nothing signs or verifies a token before that.
        publicBaseUrl: () => runtime.publicBaseUrl,
        clock,
        metadataFetch: {
          ...(opts.nodeResolver ? { resolver: opts.nodeResolver } : {}),
          ...(opts.clientMetadataCa ? { ca: opts.clientMetadataCa } : {}),
        },
      });
      const sync = await syncClients({
        authClients: config.AUTH_CLIENTS,
        clientsDir: paths.clients,
        profilesDir: paths.profiles,
        auth,
        log,
      });
      clients = sync.registry;
      // After the sync, so clients purged at this start do not count as vault files without a master secret.
      vault = Vault.open(paths, audit, log);
      return {
        outcome: 'ok',
        detail: {
          state_store: { kind: state.kind, target: state.status().target, instance: state.instance },
          created: sync.created,
          kept: sync.kept,
          purged: sync.purged,
          vault: vault.masterSecretSource,
        },
      };
    });
    const licenseGate = new LicenseGate({
      path: join(paths.secrets, 'license.jwt'),
      keys: () => [...integrity.trustedPublisherKeys(), ...(opts.extraPublisherKeys ?? [])],
      audit,
      log,
      clock,
      checkSeconds: config.LICENSE_CHECK_SECONDS,
    });
    let license!: KernelRuntime['license'];
    await runStep(log, steps, 8, 'license', async () => {
      license = await licenseGate.load();
      return {
        outcome: 'ok',
        detail: {
          state: license.state,
          tier: license.tier,
          expiresAt: license.expiresAt,
          reason: license.reason,
        },
      };
    });

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
      clock,
      license,
      modules: [],
      lastBackup: null,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      clients,
      auth,
      vault,
      integrity,
      licenseGate,
      state,
      nodeAddresses: new NodeAddressPolicy({
        allowed: config.NODE_ALLOWED_NETWORKS,
        ...(opts.nodeResolver ? { resolver: opts.nodeResolver } : {}),
      }),
    };

    let mcp!: McpKernel;
    await runStep(log, steps, 9, 'product-modules', async () => {
      cleanups.push(() => licenseGate.close());
      mcp = await loadModules(runtime, profiles, {
        gate: (id, folder) => integrity.bundleVerdict(id, folder),
        settings: {
          chromiumPath: config.CHROMIUM_PATH,
          reportMaxBytes: config.REPORT_MAX_BYTES,
          reportLimits: {
            exportMaxBytes: config.REPORT_EXPORT_MAX_BYTES,
            renderTimeoutMs: config.REPORT_RENDER_TIMEOUT_MS,
            renderMemoryMb: config.REPORT_RENDER_MEMORY_MB,
            pdfTimeoutMs: config.REPORT_PDF_TIMEOUT_MS,
            browserIdleSeconds: config.REPORT_BROWSER_IDLE_SECONDS,
            maxFilesPerClient: config.REPORTS_MAX_PER_CLIENT,
            maxBytesPerClient: config.REPORTS_MAX_BYTES_PER_CLIENT,
          },
          cdrTransfer: {
            address: config.CDR_SFTP_ADDRESS,
            bindAddress: config.CDR_SFTP_BIND_ADDRESS,
            port: config.CDR_SFTP_PORT,
            timeoutMs: config.CDR_SFTP_TIMEOUT_MS,
            maxBytes: config.CDR_FILE_MAX_BYTES,
          },
          nodeIo: {
            attempts: config.NODE_RETRY_ATTEMPTS,
            retryBaseMs: config.NODE_RETRY_BASE_MS,
            timeoutMs: config.NODE_TIMEOUT_MS,
            budgetMs: config.NODE_BUDGET_MS,
          },
        },
        status: (o) => fullStatusReport(runtime, o),
        integrity: async () => (await integrity.check()) as unknown as Record<string, unknown>,
        integrityOk: () => integrity.last()?.status === 'valid',
        ...(opts.extraPluginDirs ? { extraPluginDirs: opts.extraPluginDirs } : {}),
      });
      cleanups.push(() => mcp.close());
      runtime.modules = mcp.registry.activeProductModules();
      licenseGate.onChange((_prev, next) => {
        runtime.license = next;
        mcp.applyLicense(next);
        runtime.modules = mcp.registry.activeProductModules();
      });
      // Several instances: a profile or license change one of them sees reaches the others' sessions too.
      shareChangeNotices(state, { profiles, license: licenseGate }, log);
      // A publisher key that stops being vouched for (or starts) changes what the license is worth at once.
      integrity.onReport(() => void licenseGate.load());
      // A bundle found tampered with at run time (watchdog or on-demand check) is unloaded at once.
      integrity.onReport(() => mcp.recheckBundles());
      return {
        outcome: 'ok',
        detail: { registered: mcp.load.loaded, refused: mcp.load.refused, active: runtime.modules },
      };
    });

    let markStarted = (): void => undefined;
    const startedPromise = new Promise<void>((resolve) => (markStarted = resolve));
    let https!: HttpsServerHandle;
    await runStep(log, steps, 10, 'watchdogs', () => {
      watchdogs.register(tlsRenewalWatchdog(runtime, (m) => https.setCertificate(m)));
      // Jobs that rewrite shared state run on one instance at a time when several share it.
      watchdogs.register(singletonJob(authHousekeepingWatchdog(auth), state, log));
      // Not run on start: step 11 writes the startup tokens once the issuer is known.
      watchdogs.register(singletonJob(startupTokenWatchdog(clients, paths.clients, auth, clock), state, log));
      watchdogs.register(licenseGate.watchdog());
      // Its first run waits for step 11, so the start's backup holds the state the start produced.
      if (config.BACKUP_ENABLED)
        watchdogs.register(singletonJob(backupWatchdog(runtime, { ready: startedPromise }), state, log));
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
      const bound = https.server.address();
      if (bound && typeof bound === 'object') {
        runtime.nodeAddresses.addListener(bound.address, bound.port);
        auth.documents.addresses.addListener(bound.address, bound.port);
      }
      cleanups.push(() => https.close(0));
      runtime.publicBaseUrl = config.PUBLIC_BASE_URL || `https://${urlHost(config.SERVER_HOST)}:${port}`;
      // Step 7's startup tokens carry the issuer, so they are written now, before the first request.
      // Instances starting together on one state directory write them one at a time: the later ones
      // find the first one's tokens good and keep them, rather than each replacing the others'.
      await withLease(runtime.state, 'startup-tokens', () =>
        writeStartupTokens(clients, paths.clients, auth, clock),
      );
      const callback = buildApp(runtime, port, [
        authRoutes,
        mcp.installer(requireBearer(runtime)),
        mcp.credentialPage,
        ...(opts.installers ?? []),
      ]).callback();
      handler = (req, res) => void callback(req, res);
      return { outcome: 'ok', detail: { host: config.SERVER_HOST, port, url: runtime.publicBaseUrl } };
    });

    audit.write({
      event: 'SERVER',
      status: 'STARTUP_COMPLETE',
      version: PACKAGE_VERSION,
      modules: mcp.registry.activeProductModules(),
      client_count: runtime.clients.size,
      url: runtime.publicBaseUrl,
    });
    log.info({ url: runtime.publicBaseUrl, version: PACKAGE_VERSION }, 'server started');
    // How backup_restore --replace (and the offline commands) find this server; removed at shutdown.
    try {
      writePidFile(paths.root);
    } catch (err) {
      log.error({ err }, 'could not write server.pid; offline commands will not see this server running');
    }
    markStarted();

    let stopping: Promise<void> | undefined;
    return {
      runtime,
      mcp,
      port,
      url: runtime.publicBaseUrl,
      steps,
      stop(signal) {
        // Shutting down is never refused: a record that cannot be written (full disk) goes to app.log
        // (or stderr) and the server still stops cleanly.
        const record = (status: string): void => {
          try {
            audit.write({ event: 'SERVER', status, signal });
          } catch (err) {
            log.error({ err, status, signal }, 'the shutdown could not be written to the audit log');
          }
        };
        stopping ??= (async () => {
          record('SHUTDOWN_INITIATED');
          log.info({ signal }, 'shutdown initiated');
          await watchdogs.stop();
          removePidFile(paths.root);
          await licenseGate.close();
          await mcp.close();
          await https.close(config.SHUTDOWN_GRACE_MS);
          await profiles.close();
          // Last of the services: everything above may still read or write shared state while it stops.
          await state.close();
          record('SHUTDOWN_COMPLETE');
          log.info({ signal }, 'shutdown complete');
          await audit.close();
          await appLog.close();
        })();
        return stopping;
      },
    };
  } catch (err) {
    await watchdogs.stop();
    for (const close of cleanups.reverse()) await close().catch(() => undefined);
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
