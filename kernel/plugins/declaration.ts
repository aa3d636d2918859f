import { z } from 'zod';
import type { PluginDefinition } from '../sdk/define.ts';

/** The kernel API version plugins declare a range against (`kernel: '^1'`). */
/** 1.1: ToolContext.node, ToolDefinition.summary and currentNodeRequests (additions: `^1` plugins load). */
/**
 * 1.2: audio content blocks, prompt messages carrying any content block, a resource template's
 * variable anywhere in its URI, the test-only module `test`, and tools that may run as MCP tasks
 * (`ToolDefinition.task`), ToolContext.credentialPage and ToolInput.accepts.elicitationUrl (additions:
 * `^1` plugins load).
 */
/**
 * 1.3: the serviceability node service and allowlist, and NodeRequests.permit (each inner operation a
 * tool sends is decided by the caller's allowlist) (additions: `^1` plugins load).
 */
/**
 * 1.4: ToolContext.changes (the caller's change journal) and ToolContext.plans (single-use preview
 * plans), with their coded errors (additions: `^1` plugins load).
 */
/**
 * 1.5 (read-only credentials): NodeRequest.change_class and NodeRequests.readOnlyCredential, and the
 * READ_ONLY_CREDENTIAL error (additions: `^1` plugins load).
 */
/**
 * 1.6 (several instances): NodeRequests.request returns a Promise (its rate charge may be decided in a
 * shared store; the refusals needing no store are still thrown at once, so 1.5 plugins stay safe),
 * KernelServices.sharedState (windows and records shared by every instance), KernelServices.rateLimits,
 * and the STATE_STORE_UNAVAILABLE error (additions for plugins that do not send node requests
 * themselves: `^1` plugins load).
 */
export const KERNEL_API_VERSION = '1.6.0';

export const TOOL_NAME = /^[a-z0-9_]{1,64}$/;

const annotations = z
  .object({
    readOnlyHint: z.boolean(),
    destructiveHint: z.boolean(),
    idempotentHint: z.boolean(),
    openWorldHint: z.boolean(),
  })
  .strict();

const access = z.union([
  z.object({ minProfile: z.enum(['auditor', 'operator', 'admin']) }).strict(),
  z
    .object({
      allowlist: z.enum(['axl', 'ris', 'ssh', 'cupi', 'serviceability']),
      subject: z.function(),
    })
    .strict(),
]);

const tool = z.object({
  name: z.string().regex(/^[a-z0-9_]{1,58}$/),
  title: z.string().min(1).max(120),
  description: z.string().min(1).max(4000),
  input: z.record(
    z.string(),
    z.custom<z.ZodType>((v) => v instanceof z.ZodType, 'a zod schema'),
  ),
  output: z
    .record(
      z.string(),
      z.custom<z.ZodType>((v) => v instanceof z.ZodType, 'a zod schema'),
    )
    .optional(),
  annotations,
  access,
  service: z.enum(['axl', 'ris', 'ssh', 'cupi', 'phone', 'serviceability', 'report', 'default']),
  summary: z.function().optional(),
  task: z.literal('optional').optional(),
  handler: z.function(),
});

/** The declared value, checked before any of the plugin's code runs. */
export const pluginSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/),
  version: z.string().regex(/^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/),
  kernel: z.string().regex(/^\^\d+(\.\d+){0,2}$/),
  product: z.enum(['cucm', 'imp', 'cuc']).nullable(),
  module: z.enum(['cucm', 'imp', 'cuc', 'common', 'infra', 'test']),
  requires: z.array(z.string()),
  tools: z.array(tool),
  prompts: z.array(z.object({ name: z.string().regex(/^[a-z0-9_]{1,64}$/) }).passthrough()),
  resources: z.array(z.object({ uri: z.string().regex(/^[a-z]+:\/\/\S+$/) }).passthrough()),
  // Kernel 1.2: files kept per client (`<scheme>://<client>/<name>`).
  files: z
    .array(
      z
        .object({
          scheme: z.string().regex(/^[a-z][a-z0-9]{1,15}$/),
          readTool: z.string().regex(/^[a-z0-9_]{1,64}$/),
          stat: z.function(),
          read: z.function(),
          list: z.function(),
        })
        .passthrough(),
    )
    .optional(),
  // Kernel 1.2: suggestions for completion/complete by argument name.
  completeArgument: z.function().optional(),
});

/** Throws with a message naming the plugin and the problem when the declaration is malformed. */
export function checkDeclaration(value: unknown, folder: string): PluginDefinition {
  const r = pluginSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(
      `plugin in ${folder}: ${issue?.path.join('.') || 'declaration'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const def = value as PluginDefinition;
  if (def.product !== null && def.product !== def.module) {
    throw new Error(`plugin ${def.id}: product ${def.product} must equal its module ${def.module}`);
  }
  if (!satisfiesCaret(KERNEL_API_VERSION, def.kernel)) {
    throw new Error(
      `plugin ${def.id} needs kernel ${def.kernel}; this kernel provides ${KERNEL_API_VERSION}`,
    );
  }
  return def;
}

/** `^M[.m[.p]]`: same major, and at least the given minor/patch. */
export function satisfiesCaret(version: string, range: string): boolean {
  const want = range.slice(1).split('.').map(Number);
  const have = version.split('.').map(Number);
  if (have[0] !== want[0]) return false;
  for (let i = 1; i < want.length; i++) {
    const h = have[i] ?? 0;
    const w = want[i] ?? 0;
    if (h !== w) return h > w;
  }
  return true;
}
