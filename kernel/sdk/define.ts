import type { z } from 'zod';
import type { KernelServices } from './kernel-services.ts';
import type { ChangeConfirmation, ChangeJournalView, ChangePlans } from './changes.ts';
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
  /** Where CDR files pushed by a CUCM node are received (the CDR_SFTP_* settings); unset: not at all. */
  cdrTransfer?: CdrTransferSettings;
}

/**
 * CDR_SFTP_ADDRESS, CDR_SFTP_BIND_ADDRESS, CDR_SFTP_PORT, CDR_SFTP_TIMEOUT_MS and CDR_FILE_MAX_BYTES: a
 * CUCM node delivers a CDR file by SFTP to the address it is given, so cucm_cdr_get listens for that one
 * transfer.
 */
export interface CdrTransferSettings {
  /** The address the node is told to connect to (this server as the node reaches it); '' = not set. */
  address: string;
  bindAddress: string;
  port: number;
  timeoutMs: number;
  maxBytes: number;
}

/**
 * REPORT_EXPORT_MAX_BYTES, REPORT_RENDER_*, REPORT_PDF_TIMEOUT_MS, REPORT_BROWSER_IDLE_SECONDS and
 * REPORTS_MAX_*_PER_CLIENT.
 */
export interface ReportLimitSettings {
  /** Largest Markdown accepted for PDF export, in bytes. */
  exportMaxBytes: number;
  /** Wall time of the Markdown-to-HTML worker before it is stopped. */
  renderTimeoutMs: number;
  /** Heap of the Markdown-to-HTML worker, in megabytes. */
  renderMemoryMb: number;
  /** Wall time Chromium may take to lay out and print one report. */
  pdfTimeoutMs: number;
  /** Seconds without an export after which Chromium (and its thread) is closed; unset: 20. */
  browserIdleSeconds?: number;
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
  /**
   * One-time pages of this server where a person enters a node credential for the caller's vault, so
   * the password never passes through the client or its model (docs/credential-page.md). Kernel 1.2.
   */
  credentialPage: CredentialPages;
  /**
   * The caller's change journal: a tool that changes a node records each change here (before-image,
   * request, after-image read back), stamped with this call. Kernel 1.4.
   */
  changes: ChangeJournalView;
  /** Single-use preview plans of the caller and this tool (`dry_run`, then `plan_id`). Kernel 1.4. */
  plans: ChangePlans;
  /**
   * Notes on the call's ACTIONS outcome record (`confirmed_by`) who let its change go ahead: a plan the
   * client previewed, or the person who accepted it in their client. Kernel 1.5.
   */
  confirmed(c: ChangeConfirmation & { plan_id?: string }): void;
}

/** What a credential page asks for and shows; the kernel binds it to the caller. Kernel 1.2. */
export interface CredentialPageRequest {
  /** The tool that opened the page (shown, and the only one that may read its state). */
  tool: string;
  product: Product;
  /** The credential's kind as the page names it (AXL, OS administration (SSH)...). */
  kindLabel: string;
  host: string;
  /** store or update: what the submission does. */
  operation: 'store' | 'update';
  /** The username to prefill (the person may change it). */
  username?: string;
  /** Options the request carries, shown as they are (address, scheme, a PEM's fingerprint). */
  details: Record<string, string>;
  /**
   * For SSH credentials: the host key state to show, and whether the person may decide on a key the
   * node presented (the caller's profile permits the product's os_trust_fingerprint tool).
   */
  hostKey?: { state: 'none' | 'pending' | 'trusted' | 'rejected'; fingerprint?: string; decidable: boolean };
  /**
   * Runs when the person submits: stores the credential (the same checks as the tool) in `vault`, the
   * caller's vault as seen from the browser's address, and applies a host-key decision. Its return
   * value (never the secret) is what the tool's next round reads as `stored`. A KernelError it throws is
   * shown on the page, which stays open for another attempt.
   */
  submit(
    entry: { username: string; password: string; hostKey?: 'trust' | 'reject' },
    vault: ClientVault,
  ): Promise<Record<string, unknown>>;
}

/** A link the person opens; single use, expiring at `expiresAt`. */
export interface CredentialPageLink {
  id: string;
  url: string;
  expiresAt: string;
}

/** What became of a link this caller opened: waiting, submitted (with what the submit returned), or gone. */
export type CredentialPageState =
  | { state: 'pending'; url: string; expiresAt: string }
  | { state: 'submitted'; result: Record<string, unknown> }
  | { state: 'gone' };

export interface CredentialPages {
  /** Whether `password` may still come as a tool argument (CREDENTIALS_IN_ARGUMENTS). */
  readonly argumentsAllowed: boolean;
  /** Opens a link bound to the caller; RATE_LIMITED when too many are pending for it or overall. */
  open(request: CredentialPageRequest): CredentialPageLink;
  /** The state of a link the caller opened with `tool` (any other caller or tool: gone). */
  state(id: string, tool: string): CredentialPageState;
  /** Waits until the link is submitted or gone, `timeoutMs` passes, or `signal` aborts; then its state. */
  wait(id: string, tool: string, timeoutMs: number, signal: AbortSignal): Promise<CredentialPageState>;
  /** Withdraws a pending link (the person declined): it can no longer be submitted. */
  cancel(id: string, tool: string): void;
}

/** A tool's view of a multi-round-trip call (see ToolReply.inputRequired). */
export interface ToolInput {
  /**
   * The kinds of request this client declared it can answer; ask only for these. `elicitationUrl`
   * (kernel 1.2): it declared URL-mode elicitation (`elicitation: { url: {} }`), so an
   * `elicitation/create` with `mode: 'url'` may be asked.
   */
  accepts: { elicitation: boolean; sampling: boolean; roots: boolean; elicitationUrl: boolean };
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
  /**
   * `optional`: the call may run as an MCP task, for work that can outlast a request (a client that
   * supports tasks gets a task handle at once, polls its status and progress, fetches the result or
   * cancels it; any other client gets the plain call). The handler is the same either way, gated,
   * rate-limited and audited the same; it must stop when `ctx.signal` aborts (a cancelled task) and
   * never reply `inputRequired`. Kernel 1.2.
   */
  task?: 'optional';
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

/** One file of a client's own, as its plugin describes it (kernel 1.2). */
export interface OwnedFileInfo {
  name: string;
  mimeType: string;
  /** In bytes. */
  size: number;
}

/**
 * Files a plugin keeps per client (kernel 1.2), published as `<scheme>://<client>/<name>`: readable with
 * resources/read, and downloadable once through a link (`ctx.kernel.shareFile`), by that client only.
 * The kernel parses the URI, refuses every other client (as if the file did not exist), checks that the
 * caller may call `readTool`, bounds the size and serves the bytes; the plugin only finds files.
 */
export interface OwnedFilesDefinition<S = unknown> {
  /** The URI scheme, e.g. `report`; downloads are served under `/<scheme>s/download/`. */
  scheme: string;
  /** A tool of this plugin (without its module prefix) a caller must be permitted to read these files. */
  readTool: string;
  title: string;
  description: string;
  /**
   * The client's file `name`, or null when it has none. Throws BadRequestError for a name that could
   * never be one of these files, before any path is built from it.
   */
  stat(client: string, name: string, shared: S): OwnedFileInfo | null;
  /** The file's bytes (called after `stat`, with the size bounded by the kernel). */
  read(client: string, name: string, shared: S): Promise<Uint8Array>;
  /** The client's files, newest first (the kernel lists a bounded number). */
  list(client: string, shared: S): OwnedFileInfo[];
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
  /** Files kept per client, readable and downloadable by their owner only. Kernel 1.2. */
  files?: OwnedFilesDefinition<S>[];
  setup?(services: PluginServices): Promise<S> | S;
  teardown?(shared: S): Promise<void> | void;
  /**
   * Values this plugin suggests for any prompt argument or resource template variable named `argument`
   * (completion/complete), e.g. the AXL operations for `operation`; [] for a name it does not know. The
   * kernel filters by prefix, bounds the list and suggests `host` itself (the caller's stored hosts).
   * Optional, kernel 1.2.
   */
  completeArgument?(argument: string, prefix: string, shared: S): Promise<string[]> | string[];
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
