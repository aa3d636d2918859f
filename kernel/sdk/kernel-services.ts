import type { NodeAddressGuard } from '../net/node-address-policy.ts';
import type { RecordStore } from '../store/backend/state-backend.ts';
import type { SlidingWindowStore } from '../store/sliding-window.ts';
import type { WritesSetting } from '../rbac/writes.ts';
import type { CallerInfo, Module, Product, PromptContent, ResourceLink, Service } from './types.ts';

/** A tool as the catalogue shows it. */
export interface CatalogueTool {
  name: string;
  title: string;
  description: string;
  module: Module;
  service: Service;
  access: string;
  annotations: Record<string, boolean>;
  permitted: boolean;
}

export interface CataloguePrompt {
  name: string;
  title: string;
  description: string;
  module: Module;
  arguments: { name: string; description: string; required: boolean }[];
}

export interface CatalogueDoc {
  uri: string;
  name: string;
  title: string;
  description: string;
  module: Module;
  mimeType: string;
  template: boolean;
}

/** A file of the caller's own, handed over (kernel 1.2): see KernelServices.shareFile. */
export interface SharedFile {
  /** The `resource_link` content block to return: resources/read of its URI gives the file. */
  link: ResourceLink;
  /** One-time HTTPS download link, for clients that cannot show the file themselves. */
  downloadUrl: string;
  /** When the download link stops working (ISO 8601). */
  expiresAt: string;
}

export interface StatusOptions {
  checkIntegrity?: boolean;
}

/** The caller's effective RBAC matrix: the same objects the tool runner enforces. */
export interface PermissionMatrix {
  client: string;
  profile: string;
  products: Product[];
  tools: { allowed: string[]; denied: string[] };
  allowlists: Record<string, unknown>;
  /** The client's own restrictions on top of the profile's allowlists (both must allow). */
  allowlistNarrowing: Record<string, unknown>;
  /** The profile's `writes`: how a `change` goes ahead (a `destructive` one is always confirmed). */
  writes: WritesSetting;
  rateLimits: Record<string, Record<string, { limit: number; windowSeconds: number }>>;
}

/** Per module and service: the window and the calls still available in it now. */
export type RateLimitsRemaining = Record<
  string,
  Record<string, { limit: number; windowSeconds: number; remaining: number }>
>;

/**
 * What the kernel offers plugins that introspect it (infra) or need kernel state. Plugins reach it
 * only through `ctx.kernel`; they never import kernel internals.
 */
export interface KernelServices {
  serverName: string;
  version: string;
  startedAt: Date;
  now(): number;
  catalogue(caller: CallerInfo): { tools: CatalogueTool[]; prompts: CataloguePrompt[]; docs: CatalogueDoc[] };
  /** The matrix's `rateLimits` give each window's size; `rateLimits(caller)` adds what is left of it. */
  permissions(caller: CallerInfo): PermissionMatrix;
  /**
   * The caller's rate-limit windows with the calls still available in each now: read from the state
   * backend, which several instances may share (so asynchronous). Kernel 1.6.
   */
  rateLimits(caller: CallerInfo): Promise<RateLimitsRemaining>;
  /**
   * The full status report. With `checkIntegrity`, the integrity check runs first and the report holds
   * its result (`integrity`) and the security summary of that same check: one verdict.
   */
  status(opts?: StatusOptions): Promise<Record<string, unknown>>;
  health(): {
    status: 'ok' | 'degraded';
    ready: boolean;
    license: string;
    server: string;
    uptime_seconds: number;
  };
  metricsSnapshot(): Promise<Record<string, unknown>>;
  licensedProducts(): Product[];
  renderPrompt(
    caller: CallerInfo,
    name: string,
    args: Record<string, string>,
  ): Promise<{
    description: string;
    messages: { role: 'user' | 'assistant'; content: { type: 'text'; text: string } }[];
  }>;
  /**
   * The prompt as MCP prompts/get sends it: every message with its content (text, an image, an embedded
   * document). `renderPrompt` is the same as text only (an image or a binary document becomes a short
   * placeholder). Kernel 1.2.
   */
  getPrompt(
    caller: CallerInfo,
    name: string,
    args: Record<string, string>,
  ): Promise<{ description: string; messages: { role: 'user' | 'assistant'; content: PromptContent }[] }>;
  readDoc(caller: CallerInfo, uri: string): Promise<{ uri: string; mimeType: string; text: string }>;
  /**
   * Hands the caller one of its own files (a plugin's `files` of `scheme`): the resource link naming
   * it and a download link that works once, for a few minutes (REPORT_LINK_TTL_SECONDS), without a
   * bearer token. NOT_FOUND when the caller has no such file. Kernel 1.2.
   */
  shareFile(caller: CallerInfo, scheme: string, name: string): SharedFile;
  /** Runs the integrity check on demand (null when the check is not available). */
  checkIntegrity(): Promise<Record<string, unknown> | null>;
  /**
   * Where managed nodes may be (NODE_ALLOWED_NETWORKS and the addresses always refused): every
   * connection toward a node takes its dial options, every stored credential is checked. Kernel 1.1.
   */
  nodeAddresses: NodeAddressGuard;
  /**
   * The state backend's windows and records (STATE_BACKEND), for limits every instance must share: a
   * node's own request budgets (RisPort70, PerfMon, CDR on Demand) and the back-off it asked for. With a
   * shared backend they are shared and fail closed (STATE_STORE_UNAVAILABLE) while it cannot be reached.
   * Plugins namespace their keys ("node|<api>|..."). Unset where a test builds plugins without a kernel:
   * the plugin keeps them in its own memory. Kernel 1.6.
   */
  sharedState?: SharedState;
}

/** What `KernelServices.sharedState` hands plugins. */
export interface SharedState {
  windows: SlidingWindowStore;
  records: RecordStore;
}
