import { join } from 'node:path';
import type { KernelMiddleware } from '../http/state.ts';
import { mcpRoutes } from '../http/routes/mcp.ts';
import type { RouteInstaller } from '../http/app.ts';
import { createKernelServices } from '../mcp/kernel-services.ts';
import { createModernEndpoint, type ModernEndpoint } from '../mcp/modern-endpoint.ts';
import { createSessionServer } from '../mcp/session-server.ts';
import { ArgumentCompleter } from '../mcp/argument-completion.ts';
import { SessionManager } from '../mcp/sessions.ts';
import { ToolRunner } from '../mcp/tool-runner.ts';
import type { ToolView } from '../mcp/toolsets.ts';
import { PACKAGE_VERSION, PROJECT_ROOT } from '../paths.ts';
import { loadPlugins, type BundleGate, type LoadResult } from '../plugins/loader.ts';
import { PluginRegistry } from '../plugins/registry.ts';
import { ProfileStore } from '../rbac/profile-store.ts';
import { RateLimitedError } from '../errors/index.ts';
import { RateLimiter } from '../rbac/rate-limiter.ts';
import { NO_NARROWING, rateWindow, type Narrowing } from '../rbac/policy.ts';
import type { KernelRuntime, LicenseStatus } from '../runtime.ts';
import type { KernelServices, StatusOptions } from '../sdk/kernel-services.ts';
import type { PluginSettings } from '../sdk/define.ts';
import type { CallerInfo, Product } from '../sdk/types.ts';
import { DownloadLinks } from '../files/download-links.ts';
import { OwnedFiles } from '../files/owned-files.ts';
import { TASK_POLL_INTERVAL_MS, TaskStore } from '../mcp/tasks/task-store.ts';
import { TaskDirectory } from '../mcp/tasks/task-directory.ts';
import { fileDownloadRoutes } from '../http/routes/file-download.ts';
import { CredentialLinks, LINK_ATTEMPTS, LINKS_PER_CLIENT, LINKS_TOTAL } from '../credentials-page/links.ts';
import { credentialPageRoutes } from '../credentials-page/route.ts';
import { FileChangeJournal } from '../changes/change-journal.ts';
import { MemoryPlanStore, type PlanStore } from '../changes/plan-store.ts';
import { SharedPlanStore } from '../changes/shared-plan-store.ts';
import { SharedHmacKeys } from '../keys/shared-hmac-keys.ts';
import { RequestStateSeal } from '../mcp/request-state.ts';

/** Startup step 3 (after the sync): the live profiles, hot-reloaded. */
export async function openProfiles(
  rt: Pick<KernelRuntime, 'paths' | 'log'>,
): Promise<{ store: ProfileStore; loaded: string[]; rejected: string[] }> {
  const store = new ProfileStore(rt.paths.profiles, rt.log);
  const { loaded, rejected } = store.loadAll();
  await store.watch();
  return { store, loaded, rejected };
}

export interface McpKernel {
  registry: PluginRegistry;
  limiter: RateLimiter;
  runner: ToolRunner;
  sessions: SessionManager;
  services: KernelServices;
  /** The pending one-time credential links (in this process's memory). */
  credentialLinks: CredentialLinks;
  /** Serves them (/credentials/enter/<id>). */
  credentialPage: RouteInstaller;
  /** Every client's change journal (changes/<client>.jsonl). */
  changes: FileChangeJournal;
  /** Single-use preview plans (this process's memory). */
  plans: PlanStore;
  load: LoadResult;
  /** Applies the license: activates or hides product plugins and tells every session. */
  applyLicense(status: LicenseStatus): void;
  /**
   * Puts every registered bundle through the load gate again (after each integrity check) and unloads
   * those it now refuses: their tools leave tools/list at once, sessions are told, calls get
   * IntegrityError. Returns the ids unloaded.
   */
  recheckBundles(): string[];
  installer(auth: KernelMiddleware[]): RouteInstaller;
  close(): Promise<void>;
}

export function licensedProducts(status: LicenseStatus): Product[] {
  return status.state === 'VALID' || status.state === 'GRACE' ? (status.products as Product[]) : [];
}

/** Startup step 9: verify and register the plugin bundles, and build the tool runner and sessions. */
export async function loadModules(
  rt: KernelRuntime,
  profiles: ProfileStore,
  opts: {
    gate: BundleGate;
    settings: PluginSettings;
    status: (opts?: StatusOptions) => Promise<Record<string, unknown>>;
    integrity: () => Promise<Record<string, unknown> | null>;
    integrityOk: () => boolean;
    /** Extra bundle folders beside the shipped plugins/ (tests). */
    extraPluginDirs?: string[];
  },
): Promise<McpKernel> {
  const registry = new PluginRegistry();
  // Several instances: what one seals (a tool's request state, a download link) the next may verify.
  const sharedKeys = rt.state.kind === 'redis' ? new SharedHmacKeys(rt.paths.secrets, rt.clock) : undefined;
  // The backend's windows: with a shared backend a client's limit holds across every instance.
  const limiter = new RateLimiter(rt.state.windows, rt.clock);
  const profile = (name: string) => profiles.get(name);
  const narrowing = (client: string): Narrowing => rt.clients.get(client)?.narrowing ?? NO_NARROWING;
  // Clients' own files (reports): read by their owner only, as far as the owner may call the read tool.
  const files = new OwnedFiles({
    registry,
    mayCall: (caller, tool) => {
      const t = registry.tools.get(tool);
      return t !== undefined && runner.permits(t, caller);
    },
    charge: async (caller, tool) => {
      const t = registry.tools.get(tool);
      const p = profile(caller.profile);
      if (!t || !p) return;
      const window = rateWindow(p, t.module, t.def.service, narrowing(caller.name));
      try {
        await limiter.take(caller.name, t.module, t.def.service, window);
      } catch (err) {
        if (!(err instanceof RateLimitedError)) throw err;
        rt.metrics.rateLimited.inc({ client: caller.name, product: t.module, service: t.def.service });
        rt.audit.write({
          event: 'RATE_LIMITED',
          status: 'RATE_LIMITED',
          client: caller.name,
          method: 'resources/read',
          product: t.module,
          service: t.def.service,
          limit: window.limit,
          window_seconds: window.windowSeconds,
        });
        throw err;
      }
    },
    maxReadBytes: rt.config.REPORT_READ_MAX_BYTES,
    links: new DownloadLinks(
      rt.clock,
      rt.config.REPORT_LINK_TTL_SECONDS * 1000,
      undefined,
      sharedKeys?.forPurpose('download-links'),
      rt.state.kind === 'redis'
        ? (nonce, ttlMs) => rt.state.records.create(`download-used:${nonce}`, '1', ttlMs)
        : undefined,
    ),
    publicBaseUrl: () => rt.publicBaseUrl,
  });
  const services = createKernelServices({
    serverName: rt.config.SERVER_NAME,
    version: PACKAGE_VERSION,
    startedAt: rt.startedAt,
    clock: rt.clock,
    registry,
    profile,
    narrowing,
    limiter,
    metrics: rt.metrics,
    license: () => rt.license,
    status: opts.status,
    integrity: opts.integrity,
    integrityOk: opts.integrityOk,
    nodeAddresses: rt.nodeAddresses,
    files,
    sharedState: { windows: rt.state.windows, records: rt.state.records },
  });
  const dirs = { reports: rt.paths.reports, schemaCache: rt.paths.schemaCache };
  const load = await loadPlugins({
    pluginsDirs: [join(PROJECT_ROOT, 'plugins'), ...(opts.extraPluginDirs ?? [])],
    registry,
    gate: opts.gate,
    log: rt.log,
    services: (def) => ({
      log: rt.log.child({ plugin: def.id }),
      dirs,
      kernel: services,
      settings: opts.settings,
    }),
  });
  const credentialLinks = new CredentialLinks(
    {
      ttlMs: rt.config.CREDENTIAL_PAGE_TTL_SECONDS * 1000,
      perClient: LINKS_PER_CLIENT,
      total: LINKS_TOTAL,
      attempts: LINK_ATTEMPTS,
    },
    rt.clock,
    () => rt.publicBaseUrl,
    // With a shared store the link names this instance, for the balancer's rule (docs/scale-out.md).
    () => (rt.state.kind === 'redis' ? rt.state.instance : undefined),
  );
  const changes = new FileChangeJournal({
    dir: rt.paths.changes,
    retentionMs: rt.config.CHANGE_JOURNAL_RETENTION_DAYS * 86_400_000,
    maxBytesPerClient: rt.config.CHANGE_JOURNAL_MAX_BYTES_PER_CLIENT,
    maxRecordBytes: rt.config.CHANGE_JOURNAL_MAX_RECORD_BYTES,
    clock: rt.clock,
    onRepair: (client, what) => rt.log.warn({ client, ...what }, 'change journal repaired or bounded'),
  });
  const dropped = await changes.sweep();
  if (dropped > 0) rt.log.info({ dropped }, 'change journal records past retention removed');
  const planOptions = {
    ttlMs: rt.config.CHANGE_PLAN_TTL_SECONDS * 1000,
    perClient: rt.config.CHANGE_PLANS_MAX_PER_CLIENT,
  };
  const plans: PlanStore =
    rt.state.kind === 'redis'
      ? new SharedPlanStore(rt.state.records, planOptions)
      : new MemoryPlanStore(planOptions);
  const runner = new ToolRunner({
    registry,
    profile,
    narrowing,
    limiter,
    license: () => rt.license,
    audit: rt.audit,
    metrics: rt.metrics,
    log: rt.log,
    kernel: services,
    dirs,
    vault: rt.vault,
    credentialPages: (client) => credentialLinks.forClient(client, rt.config.CREDENTIALS_IN_ARGUMENTS),
    changes,
    plans,
    ...(sharedKeys ? { requestStates: new RequestStateSeal(sharedKeys.forPurpose('mcp.requestState')) } : {}),
  });
  const completions = new ArgumentCompleter({ registry, kernel: services, vault: rt.vault, log: rt.log });
  const sessions = new SessionManager({ perClient: 32, idleMs: 30 * 60_000 }, rt.log, rt.state);
  rt.metrics.countSessionsWith(() => sessions.count());
  // Tool calls that outlive their request (MCP tasks): kept here, not by a server instance, so a
  // 2026-07-28 client (one server per request) and a 2025-11-25 client in a new session find them.
  const tasks = new TaskDirectory(
    new TaskStore({
      perClient: rt.config.MCP_TASKS_MAX_PER_CLIENT,
      total: rt.config.MCP_TASKS_MAX_TOTAL,
      ttlMs: rt.config.MCP_TASK_TTL_SECONDS * 1000,
      pollIntervalMs: TASK_POLL_INTERVAL_MS,
    }),
    rt.state,
  );
  const makeServer = (caller: CallerInfo, ip: () => string, view: ToolView) =>
    createSessionServer(
      {
        name: rt.config.SERVER_NAME,
        version: PACKAGE_VERSION,
        registry,
        runner,
        kernel: services,
        files,
        completions,
        tasks,
      },
      caller,
      ip,
      view,
    );
  const modern: ModernEndpoint = createModernEndpoint(makeServer, {
    maxBodyBytes: rt.config.HTTP_MAX_BODY_BYTES,
    log: rt.log,
  });
  const listChanged = (kind: 'tools' | 'prompts' | 'resources'): void => {
    void sessions.notify(kind);
    modern.notify(kind);
  };
  registry.onChange(listChanged);
  // What a caller sees is filtered by its profile: a reloaded profile file may change every list.
  profiles.onChange(() => {
    listChanged('tools');
    listChanged('prompts');
    listChanged('resources');
  });
  registry.setLicensedProducts(licensedProducts(rt.license));

  return {
    registry,
    limiter,
    runner,
    sessions,
    services,
    credentialLinks,
    credentialPage: credentialPageRoutes(credentialLinks),
    changes,
    plans,
    load,
    applyLicense(status) {
      if (registry.setLicensedProducts(licensedProducts(status))) {
        rt.log.info(
          { modules: registry.activeProductModules(), license: status.state },
          'product modules changed with the license',
        );
      }
    },
    recheckBundles() {
      const unloaded: string[] = [];
      for (const p of [...registry.plugins.values()]) {
        const verdict = opts.gate(p.def.id, p.dir);
        if (verdict.ok) continue;
        const tools = [...registry.tools.values()].filter((x) => x.plugin === p).map((x) => x.name);
        registry.unregister(p.def.id, verdict.reason);
        unloaded.push(p.def.id);
        rt.log.error(
          { plugin: p.def.id, tools, reason: verdict.reason },
          `plugin bundle ${p.def.id} unloaded at run time: ${verdict.reason}`,
        );
        try {
          rt.audit.write({
            event: 'SERVER',
            status: 'PLUGIN_UNLOADED',
            severity: 'CRITICAL',
            plugin: p.def.id,
            reason: verdict.reason,
            tools,
          });
        } catch (err) {
          // The INTEGRITY_FAIL record of the same check says why; unloading must not wait for the disk.
          rt.log.error({ err, plugin: p.def.id }, 'the unloading of a plugin bundle could not be audited');
        }
        // Its pools and timers are released by the code loaded at startup (verified then), never re-read.
        void Promise.resolve()
          .then(() => p.def.teardown?.(p.shared))
          .catch((err: unknown) => rt.log.error({ err, plugin: p.def.id }, 'plugin teardown failed'));
      }
      if (unloaded.length > 0) rt.modules = registry.activeProductModules();
      return unloaded;
    },
    installer(auth) {
      const mcpInstaller = mcpRoutes({
        sessions,
        auth,
        audit: rt.audit,
        maxBodyBytes: rt.config.HTTP_MAX_BODY_BYTES,
        runner,
        modern,
        makeServer,
      });
      const downloads = fileDownloadRoutes(files);
      return (router, runtime) => {
        mcpInstaller(router);
        downloads(router, runtime);
      };
    },
    async close() {
      await sessions.closeAll();
      await modern.close();
      tasks.close();
      for (const p of registry.plugins.values()) {
        try {
          await p.def.teardown?.(p.shared);
        } catch (err) {
          rt.log.error({ err, plugin: p.def.id }, 'plugin teardown failed');
        }
      }
    },
  };
}
