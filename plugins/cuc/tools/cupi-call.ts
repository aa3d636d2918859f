import { structuredReply, z } from '../../../kernel/sdk/index.ts';
import { CHANGE_CLASS_NOTE, classifyCupi } from '../../_shared/changes/classify.ts';
import { cupiChangeAdapter } from '../../_shared/changes/cupi-adapter.ts';
import { gateChange } from '../../_shared/changes/gate.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { GATE_NOTE, gateInput, gateOutput, gateReply } from '../../_shared/tools/gate-fields.ts';
import { changeClass } from '../../_shared/tools/output-shapes.ts';
import { cupiChangeReader } from '../cupi/change-reader.ts';
import { CUPI_PREFIX, canonicalCupiPath } from '../cupi/path-policy.ts';
import { cucTool } from '../shared.ts';
import { jsonValue } from '../../_shared/tools/json-value.ts';

/** The path of a Location the node returned, when it is itself a safe CUPI path (to call it next). */
function locationPath(location: string | undefined): string | undefined {
  if (location === undefined) return undefined;
  try {
    const path = location.startsWith('/') ? location : new URL(location).pathname;
    return path.startsWith(CUPI_PREFIX) ? canonicalCupiPath(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `cuc_cupi_call`: any CUPI request the caller's allowlist permits. The path is checked twice against
 * the path policy (subject and client) and is the only part of the URL the caller controls: the host,
 * port and TLS pinning come from the stored credential. Query parameters are a separate object that
 * is encoded here, never a "?" in the path.
 */
export default cucTool({
  name: 'cupi_call',
  title: 'Call the Unity Connection REST API (CUPI)',
  description:
    'Sends one CUPI request (GET, POST, PUT, DELETE) to a path under /vmrest/, JSON in and out. Path only, e.g. /vmrest/users/<ObjectId>; query parameters in query. Returns the status, location_path of a created object and the body; non-2xx is CUPIError. Allowlist subject: METHOD /vmrest/.... ' +
    CHANGE_CLASS_NOTE +
    ' GET is read, POST and PUT are changes, DELETE and a new PIN or password (users/<id>/credential/pin or password) are destructive. ' +
    GATE_NOTE,
  input: {
    host: hostField,
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
    path: z
      .string()
      .min(1)
      .max(2048)
      .describe('Path under /vmrest/, e.g. /vmrest/users or /vmrest/users/<ObjectId>'),
    query: z
      .record(z.string().max(64), z.union([z.string().max(1024), z.number(), z.boolean()]))
      .optional()
      .describe('e.g. {"templateAlias":"voicemailusertemplate"}'),
    body: z
      .union([z.record(z.string(), jsonValue), z.array(jsonValue)])
      .optional()
      .describe('For POST and PUT, e.g. {"Alias":"jdoe"}'),
    ...gateInput,
  },
  // body: the node's answer as JSON when it parses, else its text.
  output: {
    host: z.string(),
    method: z.string(),
    path: z.string(),
    // Absent from a dry run's answer (nothing was sent).
    status: z.number().optional(),
    change_class: changeClass,
    location: z.string().optional(),
    location_path: z.string().optional(),
    body: z.unknown().optional(),
    ...gateOutput,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // Runs after validation; an unsafe path throws BAD_REQUEST here, before the allowlist and any I/O.
  access: { allowlist: 'cupi', subject: (i) => `${String(i.method)} ${canonicalCupiPath(String(i.path))}` },
  service: 'cupi',
  // Names only: query values and the body are the caller's data (a PIN, a password) and stay out.
  summary: (i) => {
    const query = Object.keys(i.query ?? {});
    const body =
      i.body === undefined
        ? undefined
        : Array.isArray(i.body)
          ? `[${i.body.length} items]`
          : Object.keys(i.body).join(', ');
    const parts = [
      ...(query.length > 0 ? [`query: ${query.join(', ')}`] : []),
      ...(body !== undefined ? [`body: ${body}`] : []),
    ];
    return {
      operation: `${i.method} ${canonicalCupiPath(i.path)}`,
      ...(parts.length > 0 ? { detail: parts.join('; ') } : {}),
    };
  },
  async handler(input, ctx) {
    const path = canonicalCupiPath(input.path);
    const change_class = classifyCupi(input.method, path).class;
    if (change_class !== 'read')
      ctx.log.info({ host: input.host, method: input.method, path: input.path, change_class }, 'CUPI write');
    const cupi = ctx.shared.cupi;
    const adapter = cupiChangeAdapter({
      reader: cupiChangeReader(cupi, ctx.vault, input.host, ctx.signal),
      canonical: canonicalCupiPath,
    });
    const out = await gateChange(
      ctx,
      adapter,
      input,
      () =>
        cupi.request(
          ctx.vault,
          input.host,
          {
            method: input.method,
            path: input.path,
            ...(input.query !== undefined ? { query: input.query } : {}),
            ...(input.body !== undefined ? { body: input.body } : {}),
          },
          ctx.signal,
        ),
      { host: input.host },
    );
    const base = { host: input.host, method: input.method, path, change_class };
    return gateReply(out, base, (r) => {
      const next = locationPath(r.location);
      return structuredReply({
        ...base,
        path: r.path,
        status: r.status,
        ...(r.location !== undefined ? { location: r.location } : {}),
        ...(next !== undefined ? { location_path: next } : {}),
        ...(r.body !== undefined ? { body: r.body } : {}),
      });
    });
  },
});
