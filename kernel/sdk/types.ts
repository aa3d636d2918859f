import type { z } from 'zod';
import type { ChangeClass } from '../rbac/writes.ts';

/** Modules of the spec; each tool name starts with its module's prefix. */
export type Module = 'cucm' | 'imp' | 'cuc' | 'common' | 'infra';
/**
 * What a bundle may declare as its module: a module of the spec, or `test` for test-only bundles (the
 * MCP conformance fixture, whose `test_*` names the suite fixes). The kernel refuses `test` in the
 * shipped plugins folder, so the product never publishes a `test_*` tool. Kernel 1.2.
 */
export type PluginModule = Module | 'test';
/** Licensed product modules (the license gates only these). */
export type Product = 'cucm' | 'imp' | 'cuc';
export const PRODUCTS: readonly Product[] = ['cucm', 'imp', 'cuc'];

/** Rate-limit services (functional spec, Limits), plus `default` for tools that talk to no node. */
export type Service = 'axl' | 'ris' | 'ssh' | 'cupi' | 'phone' | 'serviceability' | 'report' | 'default';

/**
 * The services of a managed node a request goes to (each has its rate-limit window). `serviceability`:
 * the VOS platform's serviceability SOAP APIs (PerfMon, ControlCenterServices, log collection...), on
 * every node of the three products.
 */
export type NodeService = 'axl' | 'ris' | 'ssh' | 'cupi' | 'phone' | 'serviceability';

/**
 * One request a tool is about to send to a managed node, as the call's ACTIONS outcome record lists it.
 * The kernel bounds every field (256 characters), escapes control and line-separator characters, and
 * masks secret-shaped text: still, never put a password, a PIN, a token or a request body here.
 */
export interface NodeRequest {
  service: NodeService;
  /** What it does there: `getPhone`, `show version active`, `GET /vmrest/users`, `selectCmDeviceExt`. */
  operation: string;
  /** Where it goes, `host:port` (`[v6]:port`) as the transport connects: the credential's address when set. */
  address: string;
  /**
   * The request's class by the change table (the shared transports classify every request). In a call
   * that opened a read-only credential, anything but `read` (unset included) is refused. Kernel 1.5.
   */
  change_class?: ChangeClass;
}

/** Lets a request already reported say which peer the transport really reached. */
export interface NodeRequestTicket {
  /**
   * The peer once connected, `ip:port` after name resolution; recorded (at most a few per request)
   * when it differs from the reported address.
   */
  connected(peer: string): void;
}

/**
 * The tool call's account of what it sends to managed nodes (`ctx.node`, or `currentNodeRequests()`
 * for shared clients that are not handed ctx).
 */
export interface NodeRequests {
  /**
   * Call before sending each request (each attempt of a retried one). The first request of the call
   * to a service other than the tool's declared one takes one request of that service's rate-limit
   * window (the declared one was taken before the handler ran); when the window is spent this throws
   * the RATE_LIMITED error (audited and counted by the kernel): send nothing then. Distinct requests
   * (service, operation, address) are listed, with their count, on the call's outcome record.
   * Asynchronous since the windows may be shared by several instances (kernel 1.6): await it before
   * sending; a rejection (RATE_LIMITED, STATE_STORE_UNAVAILABLE) means send nothing. The refusals that
   * need no store (READ_ONLY_CREDENTIAL, an unknown service) are thrown at once, as before 1.6, so a
   * plugin written for the synchronous call is still stopped before it sends; only the rate charge of a
   * further service is decided after such a plugin sent.
   */
  request(r: NodeRequest): Promise<NodeRequestTicket>;
  /**
   * Throws ProfilePermissionError unless the caller's profile allowlist for `service`, narrowed by its
   * client.json, permits `subject` (an operation, a command line). Call it before sending each request
   * whose subject the tool's own `access` did not decide (a serviceability tool's inner operations, the
   * further commands of a CLI tool): send nothing when it throws. The refusal is listed on the call's
   * outcome record (`denied_requests`) and the call ends DENIED when the error reaches the kernel.
   * Outside a tool call everything is permitted. Kernel 1.3.
   */
  permit(service: AllowlistService, subject: string): void;
  /**
   * Called by the vault when the call opens a credential stored read-only (`what` names it, no secret):
   * from then on `request` throws ReadOnlyCredentialError (READ_ONLY_CREDENTIAL) for every request of
   * the call whose `change_class` is not `read`, before it is sent, and the refusal is audited. Kernel 1.5.
   */
  readOnlyCredential?(what: string): void;
}

/**
 * What a tool call is about to do on a node, derived from its validated input for the call's audit
 * records (`operation`, `detail`). Bounded, escaped and redacted by the kernel; never a secret and
 * never a whole payload: name the operation, command or method and path, and summarise the rest.
 */
export interface ToolCallSummary {
  /** `updateCredentialPolicy`, `show network eth0`, `PUT /vmrest/users/<id>`, `selectCmDevice`. */
  operation: string;
  /** A short summary of the arguments: criteria, identifying fields, an SQL statement's shape. */
  detail?: string;
}

/** Allowlists a profile carries; a tool with such access is permitted per subject (operation, command...). */
export type AllowlistService = 'axl' | 'ris' | 'ssh' | 'cupi' | 'serviceability';

/** The spec's Profile column: the lowest built-in profile a tool is meant for. */
export type BuiltinProfile = 'auditor' | 'operator' | 'admin';

export type ToolAccess =
  | { minProfile: BuiltinProfile }
  | {
      allowlist: AllowlistService;
      /** What the allowlist is checked against, from the validated input (operation, command, "GET /vmrest/users"). */
      subject: (input: Record<string, unknown>) => string;
    };

/** All four MCP tool annotations, declared on every tool. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type ZodShape = Record<string, z.ZodType>;

/** MCP content blocks a tool may return besides its structured result. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | ResourceLink;

/**
 * A content block naming a resource the client reads with resources/read instead of carrying it
 * (MCP `resource_link`): how a tool hands over a file of the caller's own (`report://<client>/<name>`).
 * Kernel 1.2.
 */
export type ResourceLink = {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** In bytes. */
  size?: number;
};

/** What one message of a rendered prompt carries (kernel 1.2): a content block; a document has its text or blob. */
export type PromptContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | {
      type: 'resource';
      resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string });
    };

/** What a handler returns: structured data (sent as structuredContent and as JSON text) and/or content blocks. */
export interface ToolReply {
  structured?: Record<string, unknown>;
  content?: ContentBlock[];
  /**
   * With `structured`: the text block that stands in for it, in place of its JSON copy, so that a large
   * result does not reach the model twice. Clients that read only text get this; the data is in
   * `structuredContent`.
   */
  textSummary?: string;
  /**
   * Instead of an answer: what the client must get first (its user's input, its model's completion,
   * its roots). The client calls the tool again with the answers (`ctx.input`); `inputRequired()` builds
   * this. Kernel 1.2.
   */
  inputRequired?: InputRequired;
}

/**
 * One thing a tool asks the client for before it can answer (MCP multi-round-trip requests, SEP-2322):
 * a form for its user (`elicitation/create`), a completion from its model (`sampling/createMessage`),
 * or its roots (`roots/list`). The params are the MCP request's. Never ask a user for a secret with a
 * form (its answer passes through the client): a URL-mode elicitation (`mode: 'url'`, when
 * `ctx.input.accepts.elicitationUrl`) sends the person to a page of this server instead, as the
 * credential tools do with `ctx.credentialPage`.
 */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

export interface InputRequired {
  /** The requests, by a key the answers come back under. */
  requests?: Record<string, InputRequest>;
  /**
   * The tool's own state for the next round (at most 4 KiB). The kernel seals it to this tool and caller
   * and hands it back verified (`ctx.input.state`); the client can read it, so never put a secret in it.
   */
  state?: string;
}

/** Who is calling, as the kernel authenticated them. */
export interface CallerInfo {
  name: string;
  profile: string;
  products: Product[];
}

/**
 * Audit categories a plugin may write itself. The kernel writes ACTIONS, AUTH, SERVER, TRANSPORT and
 * RATE_LIMITED; the vault writes CREDENTIAL and TRUSTED.
 */
export type PluginAuditCategory = 'WRITTEN' | 'EXPORTED';

export interface PluginAuditEntry {
  event: PluginAuditCategory;
  status: string;
  [field: string]: unknown;
}

/** A bunyan-like logger labelled with the plugin. */
export interface PluginLogger {
  trace(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}
