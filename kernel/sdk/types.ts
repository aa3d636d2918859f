import type { z } from 'zod';

/** Modules of the spec; each tool name starts with its module's prefix. */
export type Module = 'cucm' | 'imp' | 'cuc' | 'common' | 'infra';
/** Licensed product modules (the license gates only these). */
export type Product = 'cucm' | 'imp' | 'cuc';
export const PRODUCTS: readonly Product[] = ['cucm', 'imp', 'cuc'];

/** Rate-limit services (functional spec, Limits), plus `default` for tools that talk to no node. */
export type Service = 'axl' | 'ris' | 'ssh' | 'cupi' | 'phone' | 'report' | 'default';

/** Allowlists a profile carries; a tool with such access is permitted per subject (operation, command...). */
export type AllowlistService = 'axl' | 'ris' | 'ssh' | 'cupi';

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
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };

/** What a handler returns: structured data (sent as structuredContent and as JSON text) and/or content blocks. */
export interface ToolReply {
  structured?: Record<string, unknown>;
  content?: ContentBlock[];
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
