import { NotFoundError, ProfilePermissionError, BadRequestError } from '../errors/index.ts';
import type { Metrics } from '../metrics/metrics.ts';
import {
  catalogueModule,
  publishedDocs,
  type PluginRegistry,
  type RegisteredPrompt,
  type RegisteredResource,
} from '../plugins/registry.ts';
import { effectiveProducts, rateWindow, toolPermitted, type Narrowing } from '../rbac/policy.ts';
import type { Profile } from '../rbac/profile-schema.ts';
import type { RateLimiter } from '../rbac/rate-limiter.ts';
import type { LicenseStatus } from '../runtime.ts';
import type {
  CatalogueDoc,
  CataloguePrompt,
  CatalogueTool,
  KernelServices,
  PermissionMatrix,
  RateLimitsRemaining,
  SharedState,
  StatusOptions,
} from '../sdk/kernel-services.ts';
import type { NodeAddressGuard } from '../net/node-address-policy.ts';
import type { OwnedFiles } from '../files/owned-files.ts';
import {
  PRODUCTS,
  type CallerInfo,
  type Module,
  type PluginModule,
  type Product,
  type PromptContent,
  type Service,
} from '../sdk/types.ts';

export interface KernelServicesDeps {
  serverName: string;
  version: string;
  startedAt: Date;
  clock: () => number;
  registry: PluginRegistry;
  profile: (name: string) => Profile | undefined;
  narrowing: (client: string) => Narrowing;
  limiter: RateLimiter;
  metrics: Metrics;
  license: () => LicenseStatus;
  status: (opts?: StatusOptions) => Promise<Record<string, unknown>>;
  integrity: () => Promise<Record<string, unknown> | null>;
  integrityOk: () => boolean;
  nodeAddresses: NodeAddressGuard;
  /** Clients' own files (plugins' `files`), for shareFile. */
  files: Pick<OwnedFiles, 'share'>;
  /** The state backend's windows and records, for plugins' node limits (unset in partial test kernels). */
  sharedState?: SharedState;
}

const SERVICES: Record<Module, Service[]> = {
  cucm: ['axl', 'ris', 'ssh', 'phone', 'serviceability', 'default'],
  imp: ['axl', 'ssh', 'serviceability', 'default'],
  cuc: ['cupi', 'ssh', 'serviceability', 'default'],
  common: ['report'],
  infra: ['default'],
};

/** The kernel seen from plugins (ctx.kernel). Reads the live registry, profiles and limiter. */
export function createKernelServices(d: KernelServicesDeps): KernelServices {
  const profileOf = (caller: CallerInfo): Profile => {
    const p = d.profile(caller.profile);
    if (!p) throw new ProfilePermissionError(`profile ${caller.profile} is not loaded`);
    return p;
  };
  // Modules that are no product (common, infra, a test-only bundle's) are in every caller's scope.
  const inScope = (caller: CallerInfo, profile: Profile, module: PluginModule): boolean =>
    !(PRODUCTS as readonly string[]).includes(module) ||
    effectiveProducts(caller.products, profile).includes(module as Product);
  const promptVisible = (caller: CallerInfo, profile: Profile, p: RegisteredPrompt): boolean =>
    inScope(caller, profile, p.plugin.def.module) &&
    (!p.def.profiles?.length || p.def.profiles.includes(profile.name));
  const docVisible = (caller: CallerInfo, profile: Profile, r: RegisteredResource): boolean =>
    inScope(caller, profile, r.plugin.def.module);

  const getPrompt: KernelServices['getPrompt'] = async (caller, name, args) => {
    const profile = profileOf(caller);
    const p = d.registry.prompts.get(name);
    if (!p || !p.plugin.active || !promptVisible(caller, profile, p))
      throw new NotFoundError(`no prompt named ${name.slice(0, 80)}`);
    for (const a of p.def.arguments) {
      if (a.required && !args[a.name])
        throw new BadRequestError(`prompt ${name} needs the argument ${a.name}`);
    }
    const messages = await p.def.render(args, { caller, shared: p.plugin.shared });
    return {
      description: p.def.description,
      messages: messages.map((m) => ({
        role: m.role,
        content: 'content' in m ? m.content : { type: 'text' as const, text: m.text },
      })),
    };
  };

  return {
    serverName: d.serverName,
    version: d.version,
    startedAt: d.startedAt,
    now: d.clock,

    catalogue(caller) {
      const profile = profileOf(caller);
      const tools: CatalogueTool[] = d.registry.activeTools().map((t) => ({
        name: t.name,
        title: t.def.title,
        description: t.def.description,
        module: catalogueModule(t.module),
        service: t.def.service,
        access:
          'allowlist' in t.def.access
            ? `allowlist:${t.def.access.allowlist}`
            : `minProfile:${t.def.access.minProfile}`,
        annotations: { ...t.def.annotations },
        permitted: toolPermitted(profile, t.name) && inScope(caller, profile, t.module),
      }));
      const prompts: CataloguePrompt[] = d.registry
        .activePrompts()
        .filter((p) => promptVisible(caller, profile, p))
        .map((p) => ({
          name: p.name,
          title: p.def.title,
          description: p.def.description,
          module: catalogueModule(p.plugin.def.module),
          arguments: p.def.arguments.map((a) => ({
            name: a.name,
            description: a.description,
            required: a.required,
          })),
        }));
      const docs: CatalogueDoc[] = d.registry
        .activeResources()
        .filter((x) => docVisible(caller, profile, x))
        .flatMap(publishedDocs);
      return { tools, prompts, docs };
    },

    async rateLimits(caller): Promise<RateLimitsRemaining> {
      const profile = profileOf(caller);
      const modules: Module[] = ['infra', 'common', ...effectiveProducts(caller.products, profile)];
      const rateLimits: RateLimitsRemaining = {};
      for (const m of modules) {
        const byService: RateLimitsRemaining[string] = {};
        rateLimits[m] = byService;
        for (const s of SERVICES[m]) {
          const w = rateWindow(profile, m, s, d.narrowing(caller.name));
          byService[s] = { ...w, remaining: await d.limiter.remaining(caller.name, m, s, w) };
        }
      }
      return rateLimits;
    },

    permissions(caller): PermissionMatrix {
      const profile = profileOf(caller);
      const tools = [...d.registry.tools.values()];
      const modules: Module[] = ['infra', 'common', ...effectiveProducts(caller.products, profile)];
      const rateLimits: PermissionMatrix['rateLimits'] = {};
      for (const m of modules) {
        rateLimits[m] = {};
        for (const s of SERVICES[m])
          (rateLimits[m] as Record<string, unknown>)[s] = rateWindow(profile, m, s, d.narrowing(caller.name));
      }
      return {
        client: caller.name,
        profile: profile.name,
        products: effectiveProducts(caller.products, profile),
        tools: {
          allowed: tools
            .filter((t) => toolPermitted(profile, t.name) && inScope(caller, profile, t.module))
            .map((t) => t.name)
            .sort(),
          denied: tools
            .filter((t) => !(toolPermitted(profile, t.name) && inScope(caller, profile, t.module)))
            .map((t) => t.name)
            .sort(),
        },
        allowlists: profile.allowlists,
        allowlistNarrowing: d.narrowing(caller.name).allowlists,
        writes: profile.writes,
        rateLimits,
      };
    },

    status: d.status,

    health() {
      const lic = d.license();
      const ok = d.integrityOk() && (lic.state === 'VALID' || lic.state === 'GRACE');
      return {
        status: ok ? 'ok' : 'degraded',
        ready: true,
        license: lic.state,
        server: d.serverName,
        uptime_seconds: Math.round((d.clock() - d.startedAt.getTime()) / 1000),
      };
    },

    async metricsSnapshot() {
      const families = await d.metrics.registry.getMetricsAsJSON();
      return Object.fromEntries(
        families.map((f) => [f.name, { type: f.type, help: f.help, values: f.values }]),
      );
    },

    licensedProducts() {
      const lic = d.license();
      return lic.state === 'VALID' || lic.state === 'GRACE' ? (lic.products as Product[]) : [];
    },

    getPrompt,

    async renderPrompt(caller, name, args) {
      const prompt = await getPrompt(caller, name, args);
      return {
        description: prompt.description,
        messages: prompt.messages.map((m) => ({ role: m.role, content: asText(m.content) })),
      };
    },

    async readDoc(caller, uri) {
      const profile = profileOf(caller);
      const hit = d.registry.resolveResource(uri);
      if (!hit || !hit.resource.plugin.active || !docVisible(caller, profile, hit.resource)) {
        throw new NotFoundError(`no document at ${uri.slice(0, 120)}`);
      }
      const text = await hit.resource.def.read(uri, hit.vars, hit.resource.plugin.shared);
      return { uri, mimeType: hit.resource.def.mimeType, text };
    },

    shareFile: (caller, scheme, name) => d.files.share(caller, scheme, name),
    checkIntegrity: d.integrity,
    nodeAddresses: d.nodeAddresses,
    ...(d.sharedState ? { sharedState: d.sharedState } : {}),
  };
}

/** A prompt message's content as text (renderPrompt, kernel 1.1): a document's text, else a placeholder. */
function asText(c: PromptContent): { type: 'text'; text: string } {
  if (c.type === 'text') return c;
  if (c.type === 'resource')
    return { type: 'text', text: 'text' in c.resource ? c.resource.text : `[document ${c.resource.uri}]` };
  return { type: 'text', text: `[${c.type} ${c.mimeType}]` };
}
