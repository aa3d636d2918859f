import type { z } from 'zod';
import type { KernelServices } from './kernel-services.ts';
import type { ClientVault } from '../vault/index.ts';
import type {
  CallerInfo,
  ContentBlock,
  InputRequest,
  NodeRequests,
  PluginAuditEntry,
  PluginLogger,
  PluginModule,
  Product,
  PromptContent,
  Service,
  ToolAccess,
  ToolAnnotations,
  ToolCallSummary,
  ToolReply,
  ZodShape,
} from './types.ts';

/** Directories a plugin may write to, all inside the state directory. */
export interface PluginDirs {
  /** Per-client report folders live below this. */
  reports: string;
  /** Schema cache for downloaded AXL/RIS toolkits. */
  schemaCache: string;
}

/** Settings the kernel hands plugins (a curated subset of the configuration, never secrets). */
export interface PluginSettings {
  /** The Chromium executable for PDF export. */
  chromiumPath: string;
  /** Largest report, in bytes. */
  reportMaxBytes: number;
  /** How requests to managed nodes are bounded and retried (the NODE_* settings); unset: their defaults. */
  nodeIo?: NodeIoSettings;
  /** Export bounds and per-client quotas of reports (the REPORT_* settings); unset: their defaults. */
  reportLimits?: ReportLimitSettings;
}

/** REPORT_EXPORT_MAX_BYTES, REPORT_RENDER_*, REPORT_PDF_TIMEOUT_MS and REPORTS_MAX_*_PER_CLIENT. */
export interface ReportLimitSettings {
  /** Largest Markdown accepted for PDF export, in bytes. */
  exportMaxBytes: number;
  /** Wall time of the Markdown-to-HTML worker before it is stopped. */
  renderTimeoutMs: number;
  /** Heap of the Markdown-to-HTML worker, in megabytes. */
  renderMemoryMb: number;
  /** Wall time Chromium may take to lay out and print one report. */
  pdfTimeoutMs: number;
  /** Most files (reports and PDFs) in one client's report folder. */
  maxFilesPerClient: number;
  /** Most bytes of reports and PDFs per client. */
  maxBytesPerClient: number;
}

/** NODE_RETRY_ATTEMPTS, NODE_RETRY_BASE_MS, NODE_TIMEOUT_MS and NODE_BUDGET_MS. */
export interface NodeIoSettings {
  /** Most attempts of a request that is safe to repeat (reads, logins); at least 1. */
  attempts: number;
  /** Wait before the first retry; each next one doubles (jittered). */
  retryBaseMs: number;
  /** Longest silence of a node within one attempt (connecting, or between two parts of the answer). */
  timeoutMs: number;
  /** The whole request, retries and waits included. */
  budgetMs: number;
}

/** What a plugin's setup receives. */
export interface PluginServices {
  log: PluginLogger;
  dirs: PluginDirs;
  kernel: KernelServices;
  settings: PluginSettings;
}

/** Everything a handler may use; handlers never import kernel internals. */
export interface ToolContext<S = unknown> {
  caller: CallerInfo;
  log: PluginLogger;
  /** Writes a CREDENTIAL, TRUSTED, WRITTEN or EXPORTED audit record (client and ip are added). */
  audit(entry: PluginAuditEntry): void;
  /** Aborted when the client cancels the call or the server shuts down. */
  signal: AbortSignal;
  /** Sends an MCP progress notification when the client asked for progress; a no-op otherwise. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  kernel: KernelServices;
  dirs: PluginDirs;
  /** What the plugin's setup returned (shared clients, caches, a browser...). */
  shared: S;
  /** The caller's own credentials and host-key decisions; it audits CREDENTIAL and TRUSTED itself. */
  vault: ClientVault;
  /**
   * Reports each request to a managed node before it is sent: listed on the call's outcome record and
   * charged to the rate limit of its service (see NodeRequests). The shared transports report their
   * own requests; a handler that sends anything else calls it itself. Added in kernel 1.1.
   */
  node: NodeRequests;
  /** What the client can be asked, and its answers to this tool's previous `inputRequired` reply. Kernel 1.2. */
  input: ToolInput;
}

/** A tool's view of a multi-round-trip call (see ToolReply.inputRequired). */
export interface ToolInput {
  /** The kinds of request this client declared it can answer; ask only for these. */
  accepts: { elicitation: boolean; sampling: boolean; roots: boolean };
  /** The client's answers to the previous round, by request key; empty on the first round. Untrusted. */
  responses: Record<string, unknown>;
  /** The state the previous round returned, verified by the kernel; absent on the first round. */
  state?: string;
}

export interface ToolDefinition<I extends ZodShape = ZodShape, S = unknown> {
  /** Name without the module prefix: `get_version` becomes `cucm_get_version`. */
  name: string;
  title: string;
  description: string;
  input: I;
  output?: ZodShape;
  annotations: ToolAnnotations;
  access: ToolAccess;
  /** The rate-limit service charged before the handler runs; other services are charged on first contact. */
  service: Service;
  /**
   * What the call will do on a node, from the validated input, for its ACTIONS records (STARTED and
   * outcome). Optional: without it, a tool with allowlist access is summarised by its allowlist subject.
   * Added in kernel 1.1.
   */
  summary?(input: z.infer<z.ZodObject<I>>): ToolCallSummary;
  handler(input: z.infer<z.ZodObject<I>>, ctx: ToolContext<S>): Promise<ToolReply>;
}

export interface PromptDefinition<S = unknown> {
  name: string;
  title: string;
  description: string;
  /** Argument descriptions; all prompt arguments are strings (MCP). */
  arguments: {
    name: string;
    description: string;
    required: boolean;
    complete?: (prefix: string) => string[];
  }[];
  /** Profiles allowed to get this prompt (spec: audits need admin or auditor). Empty: every profile. */
  profiles?: string[];
  render(
    args: Record<string, string>,
    ctx: { caller: CallerInfo; shared: S },
  ): Promise<PromptMessage[]> | PromptMessage[];
}

/** One message of a rendered prompt: text, or (kernel 1.2) any content: an image, an embedded document. */
export type PromptMessage =
  { role: 'user' | 'assistant'; text: string } | { role: 'user' | 'assistant'; content: PromptContent };

export interface ResourceDefinition<S = unknown> {
  /** A fixed URI (`cuc://cupi/reference`) or a template with one `{name}` variable (`cucm://cli-guide/{topic}`). */
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** For a template: the concrete members (resources/list shows each). */
  list?(shared: S): { name: string; title: string; description?: string }[];
  read(uri: string, vars: Record<string, string>, shared: S): Promise<string> | string;
}

export interface PluginDefinition<S = unknown> {
  id: string;
  version: string;
  /** Kernel API range this plugin is written for, e.g. `^1`. */
  kernel: string;
  /** The licensed product it belongs to; null for infra and common (always loaded). */
  product: Product | null;
  /** Module prefix of its tools, prompts and resources (`test`: test-only bundles, kernel 1.2). */
  module: PluginModule;
  /** Ids of plugins that must be loaded first. */
  requires: string[];
  tools: ToolDefinition<ZodShape, S>[];
  prompts: PromptDefinition<S>[];
  resources: ResourceDefinition<S>[];
  setup?(services: PluginServices): Promise<S> | S;
  teardown?(shared: S): Promise<void> | void;
}

/** Declares a tool. Identity at run time: the kernel checks the value when it loads the plugin. */
export function defineTool<I extends ZodShape, S = unknown>(
  def: ToolDefinition<I, S>,
): ToolDefinition<ZodShape, S> {
  return def as unknown as ToolDefinition<ZodShape, S>;
}

/**
 * `defineTool` for a plugin with shared state S: `const tool = toolsFor<MyShared>();` then
 * `tool({...})` infers the input shape while typing `ctx.shared` as S.
 */
export function toolsFor<S>() {
  return <I extends ZodShape>(def: ToolDefinition<I, S>): ToolDefinition<ZodShape, S> =>
    defineTool<I, S>(def);
}

export function definePrompt<S = unknown>(def: PromptDefinition<S>): PromptDefinition<S> {
  return def;
}

export function defineResource<S = unknown>(def: ResourceDefinition<S>): ResourceDefinition<S> {
  return def;
}

export function definePlugin<S = unknown>(def: PluginDefinition<S>): PluginDefinition<S> {
  return def;
}

/** An input-required reply: the client gets what `requests` names, then calls the tool again (ctx.input). */
export function inputRequired(requests: Record<string, InputRequest>, state?: string): ToolReply {
  return { inputRequired: { requests, ...(state !== undefined ? { state } : {}) } };
}

/** A text reply. */
export function textReply(text: string): ToolReply {
  return { content: [{ type: 'text', text }] };
}

/** A structured reply (also rendered as JSON text for clients that ignore structuredContent). */
export function structuredReply(structured: Record<string, unknown>, extra: ContentBlock[] = []): ToolReply {
  return { structured, content: extra };
}
