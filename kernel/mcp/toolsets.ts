import { BadRequestError } from '../errors/index.ts';
import type { RegisteredTool } from '../plugins/registry.ts';
import { matchesAny } from '../rbac/glob.ts';
import type { Narrowing } from '../rbac/policy.ts';
import type { ToolsetName } from './toolset-names.ts';

/** The credential tools of every product: their own toolset, never part of a product's. */
const CREDENTIAL_TOOLS = [
  '*_store_credentials',
  '*_update_credentials',
  '*_delete_credentials',
  '*_list_credentials',
  '*_trust_fingerprint',
  '*_trust_certificate',
];

/** What the security audits gather evidence with (the shipped auditor's reads), and the report tools. */
const AUDIT_TOOLS = [
  '*_get_version',
  '*_list_axl_operations',
  '*_axl_call',
  '*_risport_query',
  '*_os_run_command',
  '*_check_connectivity',
  '*_list_credentials',
  'cucm_phone_screenshot',
  'cuc_cupi_list',
  'cuc_cupi_call',
  'common_*',
];

const isCredential = (t: RegisteredTool): boolean => matchesAny(t.name, CREDENTIAL_TOOLS);

/** Toolsets a client may ask for (github-mcp-server's manner); infra tools are in every view. */
export const TOOLSETS: Readonly<Record<ToolsetName, (t: RegisteredTool) => boolean>> = {
  cucm: (t) => t.module === 'cucm' && !isCredential(t),
  imp: (t) => t.module === 'imp' && !isCredential(t),
  cuc: (t) => t.module === 'cuc' && !isCredential(t),
  reports: (t) => t.module === 'common',
  audit: (t) => matchesAny(t.name, AUDIT_TOOLS),
  credentials: isCredential,
};

/**
 * What a connection asked to see: a subset of toolsets and/or only read-only tools. It narrows what the
 * caller's profile, scope and license allow and never widens it; a tool outside it is neither listed
 * nor callable on that connection.
 */
export interface ToolView {
  /** Each entry is one request's list (query parameter, header): a tool must be in every one. */
  toolsets: ReadonlySet<string>[];
  readOnly: boolean;
}

export const FULL_VIEW: ToolView = { toolsets: [], readOnly: false };

export function inView(tool: RegisteredTool, view: ToolView): boolean {
  if (tool.module === 'infra') return true;
  if (view.readOnly && tool.def.annotations.readOnlyHint !== true) return false;
  return view.toolsets.every((sets) =>
    [...sets].some((s) => Object.hasOwn(TOOLSETS, s) && TOOLSETS[s as ToolsetName](tool)),
  );
}

/**
 * Standing views by the narrowing they were built from, so that a call does not build a Set per
 * permission check. A view is reused only while the narrowing still holds the same toolsets list and
 * read-only flag it was built from: a client.json read again gives a new narrowing (or new values),
 * and with it a new view at the next check. Dropped with the narrowing.
 */
const standing = new WeakMap<
  Narrowing,
  { toolsets: Narrowing['toolsets']; readOnly: Narrowing['readOnly']; view: ToolView }
>();

/** The view a client's client.json sets for all its connections (toolsets, readOnly). */
export function standingView(n: Narrowing): ToolView {
  const kept = standing.get(n);
  if (kept && kept.toolsets === n.toolsets && kept.readOnly === n.readOnly) return kept.view;
  const view = { toolsets: n.toolsets ? [new Set(n.toolsets)] : [], readOnly: n.readOnly === true };
  standing.set(n, { toolsets: n.toolsets, readOnly: n.readOnly, view });
  return view;
}

const MAX_TOOLSETS_TEXT = 256;

function toolsetList(raw: string, where: string): Set<string> {
  if (raw.length > MAX_TOOLSETS_TEXT)
    throw new BadRequestError(`${where} is longer than ${MAX_TOOLSETS_TEXT} characters`);
  const names = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  const unknown = names.filter((n) => !Object.hasOwn(TOOLSETS, n));
  if (unknown.length > 0) {
    throw new BadRequestError(
      `unknown toolset ${unknown.map((n) => JSON.stringify(n.slice(0, 40))).join(', ')} in ${where}; known: ${Object.keys(TOOLSETS).join(', ')}`,
    );
  }
  if (names.length === 0)
    throw new BadRequestError(`${where} names no toolset; known: ${Object.keys(TOOLSETS).join(', ')}`);
  return new Set(names);
}

function flag(raw: string, where: string): boolean {
  const v = raw.trim().toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false' || v === '') return false;
  throw new BadRequestError(`${where} must be 1, true, 0 or false`);
}

/**
 * The view a request asks for: `?toolsets=cucm,reports&readonly=1` on the MCP URL, or the headers
 * X-MCP-Toolsets and X-MCP-Readonly. Both may be given: each narrows. Throws BadRequestError (400) for
 * an unknown toolset or a malformed value, so a typo never silently shows the full list.
 */
export function requestedView(
  query: URLSearchParams,
  header: (name: string) => string | undefined,
): ToolView {
  const toolsets: Set<string>[] = [];
  const q = query.getAll('toolsets');
  if (q.length > 1) throw new BadRequestError('the toolsets query parameter is given more than once');
  if (q[0] !== undefined) toolsets.push(toolsetList(q[0], 'the toolsets query parameter'));
  const h = header('x-mcp-toolsets');
  if (h !== undefined) toolsets.push(toolsetList(h, 'the X-MCP-Toolsets header'));
  const r = query.getAll('readonly');
  if (r.length > 1) throw new BadRequestError('the readonly query parameter is given more than once');
  const hr = header('x-mcp-readonly');
  const fromQuery = r[0] !== undefined && flag(r[0], 'the readonly query parameter');
  const fromHeader = hr !== undefined && flag(hr, 'the X-MCP-Readonly header');
  return { toolsets, readOnly: fromQuery || fromHeader };
}
