import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors/index.ts';
import { writeJsonAtomic } from '../store/atomic-file.ts';
import { TOOLSET_NAMES } from '../mcp/toolset-names.ts';
import { redirectUriProblem, shownUri } from './redirect-uri.ts';

// clients/<name>/client.json: the operator's per-client settings. Narrowing only ever restricts what the
// profile grants (the RBAC layer intersects allowlists and takes the lower rate limit); it never widens.

const pattern = z.union([
  z.string().min(1).max(512),
  z
    .object({
      methods: z.array(z.enum(['GET', 'POST', 'PUT', 'DELETE'])).min(1),
      path: z.string().min(1).max(512),
    })
    .strict(),
]);
const allowlist = z
  .object({ allow: z.array(pattern).optional(), deny: z.array(pattern).optional() })
  .strict();
const limit = z
  .object({ limit: z.number().int().positive(), windowSeconds: z.number().int().positive() })
  .strict();
const services = z.enum(['axl', 'ris', 'ssh', 'cupi', 'serviceability']);
const limitProducts = z.enum(['cucm', 'imp', 'cuc', 'common']);
const limitServices = z.enum(['axl', 'ris', 'ssh', 'cupi', 'phone', 'serviceability', 'report']);

const settingsSchema = z
  .object({
    description: z.string().max(1024).optional(),
    redirect_uris: z.array(z.string()).default([]),
    allowlists: z.partialRecord(services, allowlist).default({}),
    rateLimits: z.partialRecord(limitProducts, z.partialRecord(limitServices, limit)).default({}),
    // The client's standing view: as a connection's ?toolsets= and ?readonly=, on every connection.
    toolsets: z
      .array(z.enum(TOOLSET_NAMES))
      .min(1, 'names no toolset (leave it out for all)')
      .max(TOOLSET_NAMES.length)
      .optional(),
    readOnly: z.boolean().default(false),
  })
  .strict();

export type ClientAllowlistNarrowing = z.output<typeof allowlist>;
/** Per-client restrictions on top of the profile, read by the RBAC layer. */
export interface ClientNarrowing {
  allowlists: z.output<typeof settingsSchema>['allowlists'];
  rateLimits: z.output<typeof settingsSchema>['rateLimits'];
  toolsets?: string[];
  readOnly: boolean;
}

export interface ClientSettings {
  redirectUris: string[];
  narrowing: ClientNarrowing;
}

/** What a new client's client.json starts as: nothing narrowed, no redirect URI. */
const TEMPLATE = { redirect_uris: [], allowlists: {}, rateLimits: {} };

/** Writes the empty template for a new client, so the operator finds the file to edit. */
export function writeSettingsTemplate(path: string): void {
  if (!existsSync(path)) writeJsonAtomic(path, TEMPLATE, 0o644);
}

/** Reads client.json (absent: nothing narrowed). A bad file is a ConfigError naming client and file. */
export function readClientSettings(client: string, path: string): ClientSettings {
  if (!existsSync(path))
    return { redirectUris: [], narrowing: { allowlists: {}, rateLimits: {}, readOnly: false } };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`client "${client}": ${path} is not valid JSON (${(err as Error).message})`);
  }
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.join('.') || '(top level)';
    throw new ConfigError(`client "${client}": ${path}: ${at}: ${issue?.message ?? 'invalid'}`);
  }
  for (const uri of parsed.data.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem)
      throw new ConfigError(`client "${client}": ${path}: redirect URI "${shownUri(uri)}" ${problem}`);
  }
  return {
    redirectUris: parsed.data.redirect_uris,
    narrowing: {
      allowlists: parsed.data.allowlists,
      rateLimits: parsed.data.rateLimits,
      ...(parsed.data.toolsets ? { toolsets: parsed.data.toolsets } : {}),
      readOnly: parsed.data.readOnly,
    },
  };
}
