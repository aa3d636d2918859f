// What the change corpus tests share: the inverse W's builders give for a journalled change from the
// record alone (operation, request, before-image), used to put back someone else's change; the proof
// that a preview only read; the CUPI client used directly, as someone else outside the server.
import assert from 'node:assert/strict';
import type { ClientVault } from '../../kernel/sdk/index.ts';
import type { Lab } from '../../lab/index.ts';
import type { Json } from '../../plugins/_shared/axl/schema.ts';
import type { XsdModel } from '../../plugins/_shared/axl/xsd-model.ts';
import type { AxlBefore } from '../../plugins/_shared/changes/axl-adapter.ts';
import type { AxlImage } from '../../plugins/_shared/changes/axl-before-image.ts';
import type { AxlDependant } from '../../plugins/_shared/changes/axl-dependants.ts';
import type { AxlInverse } from '../../plugins/_shared/changes/axl-inverse.ts';
import { buildAxlInverse } from '../../plugins/_shared/changes/axl-inverse.ts';
import type { AxlTarget } from '../../plugins/_shared/changes/axl-target.ts';
import { resolveAxlTarget } from '../../plugins/_shared/changes/axl-target.ts';
import type { CupiImage, CupiInverse, CupiTarget } from '../../plugins/_shared/changes/cupi-change.ts';
import { buildCupiInverse, resolveCupiTarget } from '../../plugins/_shared/changes/cupi-change.ts';
import type { Plain } from '../../plugins/_shared/changes/values.ts';
import type { CupiClients } from '../../plugins/cuc/cupi/cupi-clients.ts';
import type { CupiChangeCase } from './change-cases.ts';

export function axlTarget(xsd: XsdModel, operation: string, args: Record<string, Json>): AxlTarget {
  const t = resolveAxlTarget(xsd, operation, args);
  if (!('kind' in t)) throw new Error(`${operation}: ${t.reason}`);
  return t;
}

function imageFrom(plain: Plain | null): AxlImage {
  return plain === null
    ? { state: 'absent' }
    : { state: 'present', raw: plain as Record<string, Json>, image: plain };
}

/** The object's own image in an AXL before-image (which may carry its dependants' beside it). */
export function ownImage(before: AxlBefore): Plain | null {
  return before !== null && typeof before === 'object' && 'dependants' in before && 'image' in before
    ? (before.image as Plain)
    : (before as Plain | null);
}

/** The AXL inverse of a journalled change, from its operation, request, before-image and added uuid. */
export function axlInverseOf(
  xsd: XsdModel,
  operation: string,
  args: Record<string, Json>,
  before: AxlBefore,
  uuid?: string,
): AxlInverse {
  const target = axlTarget(xsd, operation, args);
  const deps: AxlDependant[] =
    before !== null && typeof before === 'object' && 'dependants' in before && 'image' in before
      ? (
          before.dependants as {
            field: string;
            operation: string;
            args: Record<string, Json>;
            image: Plain | null;
          }[]
        ).map((d) => ({
          field: d.field,
          target: axlTarget(xsd, d.operation, d.args),
          before: imageFrom(d.image),
        }))
      : [];
  return buildAxlInverse(xsd, target, imageFrom(ownImage(before)), { args, ...(uuid ? { uuid } : {}) }, deps);
}

export function cupiTarget(method: string, path: string): CupiTarget {
  const t = resolveCupiTarget(method, path);
  if (!('verb' in t)) throw new Error(`${method} ${path}: ${t.reason}`);
  return t;
}

/** The CUPI inverse of a journalled change, from its before-image (normalised) and the POST's Location. */
export function cupiInverseOf(
  method: string,
  path: string,
  body: Record<string, Json> | undefined,
  before: Plain | null,
  templates: { user: string; callhandler: string },
  location?: string,
): CupiInverse {
  const was: CupiImage =
    before === null
      ? { state: 'absent' }
      : { state: 'present', raw: before as Record<string, Json>, image: before };
  return buildCupiInverse(
    cupiTarget(method, path),
    was,
    { ...(body ? { body } : {}), ...(location ? { location } : {}) },
    { userTemplateAlias: templates.user, callHandlerTemplateObjectId: templates.callhandler },
  );
}

const READ = /^(get|list)|^executeSQLQuery$/;

/** Runs `fn` and proves the lab received only reads of `service` and recorded no write meanwhile. */
export async function labReadsOnly<T>(lab: Lab, service: 'axl' | 'cupi', fn: () => Promise<T>): Promise<T> {
  const log = lab.state.log;
  const [requests, writes] = [log.requests.length, log.writes.length];
  const out = await fn();
  assert.deepEqual(log.writes.slice(writes), [], 'no write reached the lab');
  const sent = log.requests.slice(requests).filter((r) => r.service === service);
  assert.ok(
    sent.every((r) => (service === 'axl' ? READ.test(r.operation ?? '') : r.method === 'GET')),
    sent.map((r) => `${r.method} ${r.operation ?? r.path}`).join(),
  );
  return out;
}

/** CUPI through its client, outside the server: the corpus's own reads and someone else's writes. */
export function directCupi(cupi: CupiClients, vault: ClientVault, host: string) {
  return {
    /** The path a case names: its collection's, or the object its `find` field names. */
    async pathOf(c: CupiChangeCase): Promise<string> {
      if (!c.find) return `/vmrest/${c.collection}`;
      const { field, value } = c.find;
      const page = await cupi.list(vault, host, {
        resource: c.collection,
        query: `(${field} is ${value})`,
        rowsPerPage: 5,
        pageNumber: 1,
      });
      const item = page.items.find((i) => (i as Record<string, string>)[field] === value);
      assert.ok(item, `${c.collection} ${field}=${value}`);
      return `/vmrest/${c.collection}/${(item as { ObjectId: string }).ObjectId}`;
    },
    send(
      method: 'POST' | 'PUT' | 'DELETE',
      path: string,
      body?: Record<string, Json>,
      query?: Record<string, string>,
    ) {
      return cupi.request(vault, host, {
        method,
        path,
        ...(body ? { body } : {}),
        ...(query ? { query } : {}),
      });
    },
    /** The first call handler template's ObjectId. */
    async handlerTemplate(): Promise<string> {
      const list = await cupi.list(vault, host, {
        resource: 'callhandlertemplates',
        rowsPerPage: 5,
        pageNumber: 1,
      });
      return (list.items[0] as { ObjectId: string }).ObjectId;
    },
  };
}

/** The query a case's create needs: the template its object is made from. */
export function templateQuery(
  c: CupiChangeCase,
  templates: { user: string; callhandler: string },
): Record<string, string> | undefined {
  if (c.template === 'user') return { templateAlias: templates.user };
  if (c.template === 'callhandler') return { templateObjectId: templates.callhandler };
  return undefined;
}
