import {
  BadRequestError,
  isKernelError,
  ProfilePermissionError,
  structuredReply,
  toolsFor,
  z,
  type Product,
} from '../../../kernel/sdk/index.ts';
import type { XmlNode } from '../node/xml-text.ts';
import type { SoapCall } from '../serviceability/client.ts';
import { ServiceabilityRateLimitError } from '../serviceability/limits.ts';
import { PERFMON_API } from '../serviceability/perfmon/api.ts';
import type { CounterValue } from '../serviceability/perfmon/calls.ts';
import { collectObject, sampleTwice } from '../serviceability/perfmon/calls.ts';
import {
  needsTwoSamples,
  parseCounterPath,
  unitOf,
  validStatus,
} from '../serviceability/perfmon/counters.ts';
import type { ServiceabilityState } from '../serviceability/state.ts';
import { CLUSTER_LISTING_OPERATION, clusterTargets } from '../serviceability/cluster.ts';
import { hostField } from './credential-input.ts';
import { perfmonName, perfmonNode } from './perfmon-input.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

/**
 * Counters one session holds here. No Cisco document we read gives a node's limit; a query past this
 * many two-sample counters is refused before anything is sent (ask fewer counters or instances).
 */
export const MAX_SESSION_COUNTERS = 50;

const valueShape = z.object({
  counter: z.string(),
  instance: z.string().optional(),
  value: z.number(),
  unit: z.string(),
  samples: z.number(),
});

interface NodeResult {
  node: string;
  values: z.infer<typeof valueShape>[];
  invalid?: { counter: string; instance?: string; cstatus: number }[];
  error?: { code: string; message: string };
}

/** `<product>_perfmon_query`: counter values of one object, per node, with units. */
export function perfmonQueryTool(product: Product) {
  return toolsFor<ServiceabilityState>()({
    name: 'perfmon_query',
    title: `${PRODUCT_LABEL[product]} PerfMon counter values`,
    description: `Current values of one PerfMon object's counters on one or more nodes of a ${PRODUCT_LABEL[product]} cluster, as numbers with units (perfmonCollectCounterData). Percentage counters need two samples: they are read in a session (perfmonOpenSession, perfmonAddCounter, perfmonCollectSessionData twice sample_interval_seconds apart, perfmonCloseSession), which costs five more requests per node. counters and instances narrow the answer (default: all). nodes names the cluster nodes to read through host (default: host itself); a node that fails is reported with its error while the others answer. all_nodes instead asks every node of the cluster (as it lists itself: ${CLUSTER_LISTING_OPERATION[product]}) at its own address, with the credential you stored under the node's name and that node's own budget; a node without one is listed with CredentialError and never contacted. Each node allows a limited number of PerfMon requests a minute, shared by every client: past it the call fails with SERVICEABILITY_ERROR and retry_after_seconds. Use ${product}_perfmon_list_counters for the names.`,
    input: {
      host: hostField,
      object: perfmonName.describe('e.g. "Cisco CallManager", "Processor", "Memory"'),
      counters: z
        .array(perfmonName)
        .max(100)
        .default([])
        .describe('Counter names; [] = every counter of the object'),
      instances: z
        .array(perfmonName)
        .max(100)
        .default([])
        .describe('Instance names (multi-instance objects); [] = all'),
      nodes: z
        .array(perfmonNode)
        .max(16)
        .default([])
        .describe('Cluster nodes to read through host, as the cluster names them; [] = host itself'),
      all_nodes: z
        .boolean()
        .default(false)
        .describe(
          `Every node of the cluster, as it lists itself (${CLUSTER_LISTING_OPERATION[product]}), each asked at its own address with the credential you stored under its name (not with nodes)`,
        ),
      sample_interval_seconds: z
        .number()
        .int()
        .min(1)
        .max(10)
        .default(2)
        .describe('Between the two samples of a percentage counter'),
    },
    output: {
      host: z.string(),
      object: z.string(),
      nodes: z.array(
        z.object({
          node: z.string(),
          values: z.array(valueShape),
          invalid: z
            .array(z.object({ counter: z.string(), instance: z.string().optional(), cstatus: z.number() }))
            .optional(),
          error: z.object({ code: z.string(), message: z.string() }).optional(),
        }),
      ),
      missing_counters: z.array(z.string()).optional(),
      requests: z.number(),
      rate: z.object({ per_minute: z.number(), remaining: z.number() }),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: { allowlist: 'serviceability', subject: () => 'perfmonCollectCounterData' },
    service: 'serviceability',
    summary: (input) => ({
      operation: 'perfmonCollectCounterData',
      detail: `object=${String(input.object)}; nodes=${((input.nodes as string[] | undefined)?.length ? (input.nodes as string[]) : [String(input.host)]).join(',')}${input.all_nodes ? ` +${CLUSTER_LISTING_OPERATION[product]} (all nodes)` : ''}`,
    }),
    async handler(input, ctx) {
      const client = ctx.shared.serviceability;
      if (input.all_nodes && input.nodes.length > 0)
        throw new BadRequestError(
          'all_nodes asks every node at its own address, nodes reads other nodes through host: give one or the other',
        );
      const cluster = input.all_nodes
        ? await clusterTargets(ctx.shared.clusterNodes, ctx.vault, product, input.host, ctx.signal)
        : undefined;
      const node = await client.endpoint(ctx.vault, input.host);
      const targets = input.nodes.length > 0 ? [...new Set(input.nodes)] : [input.host];
      const wanted = new Set(input.counters);
      const wantedInstances = new Set(input.instances);
      let requests = 0;
      const seen = new Set<string>();
      const sender =
        (call: (c: SoapCall) => Promise<XmlNode>) =>
        (c: SoapCall): Promise<XmlNode> => {
          requests++;
          return call({ ...c, ...(ctx.signal ? { signal: ctx.signal } : {}) });
        };
      const nodes: NodeResult[] = await client.session(node, async (call) => {
        const send = sender(call);
        const out: NodeResult[] = [];
        for (const target of targets) {
          try {
            out.push(await readNode(send, target));
          } catch (err) {
            // The node's budget is everyone's: once spent, no other node of the call is tried. A refused
            // operation is the caller's: it ends the call (DENIED) rather than failing one node.
            if (
              err instanceof ServiceabilityRateLimitError ||
              err instanceof ProfilePermissionError ||
              targets.length === 1 ||
              !isKernelError(err)
            )
              throw err;
            out.push({ node: target, values: [], error: { code: err.code, message: err.message } });
          }
        }
        return out;
      });
      // all_nodes: every other node at its own address, with the credential stored for it and its own
      // budget; one that fails (down, refused, its budget spent) is reported while the others answer.
      for (const t of cluster?.reached ?? []) {
        if (t.credentialHost === input.host) continue;
        try {
          const at = await client.endpoint(ctx.vault, t.credentialHost);
          nodes.push(await client.session(at, (call) => readNode(sender(call), t.node)));
        } catch (err) {
          if (!isKernelError(err)) throw err;
          nodes.push({ node: t.node, values: [], error: { code: err.code, message: err.message } });
        }
      }
      for (const u of cluster?.unreached ?? [])
        nodes.push({ node: u.node, values: [], error: { code: u.error.code, message: u.error.message } });
      const missing = [...wanted].filter((c) => !seen.has(c));
      return structuredReply({
        host: input.host,
        object: input.object,
        nodes,
        ...(missing.length > 0 ? { missing_counters: missing } : {}),
        requests,
        rate: await client.budget(PERFMON_API, node),
      });

      async function readNode(send: (c: SoapCall) => Promise<XmlNode>, target: string): Promise<NodeResult> {
        const picked = (await collectObject(send, target, input.object, ctx.signal)).filter((v) => {
          const p = parseCounterPath(v.name);
          if (!p) return false;
          seen.add(p.counter);
          return (
            (wanted.size === 0 || wanted.has(p.counter)) &&
            (wantedInstances.size === 0 || (p.instance !== undefined && wantedInstances.has(p.instance)))
          );
        });
        const twice = picked.filter((v) => needsTwoSamples(parseCounterPath(v.name)?.counter ?? ''));
        if (twice.length > MAX_SESSION_COUNTERS)
          throw new BadRequestError(
            `${twice.length} percentage counters on ${target} would go into one session sampled twice; at most ${MAX_SESSION_COUNTERS} per query: name fewer counters or instances`,
          );
        const sampled = new Map<string, CounterValue>();
        if (twice.length > 0)
          for (const v of await sampleTwice(
            send,
            twice.map((t) => t.name),
            input.sample_interval_seconds * 1000,
            ctx.signal,
          ))
            sampled.set(v.name, v);
        const result: NodeResult = { node: target, values: [] };
        for (const v of picked) {
          const p = parseCounterPath(v.name);
          if (!p) continue;
          const two = needsTwoSamples(p.counter);
          const final = two ? sampled.get(v.name) : v;
          if (!final || !validStatus(final.cstatus) || !Number.isFinite(final.value)) {
            (result.invalid ??= []).push({
              counter: p.counter,
              ...(p.instance !== undefined ? { instance: p.instance } : {}),
              cstatus: final?.cstatus ?? -1,
            });
            continue;
          }
          result.values.push({
            counter: p.counter,
            ...(p.instance !== undefined ? { instance: p.instance } : {}),
            value: final.value,
            unit: unitOf(p.counter),
            samples: two ? 2 : 1,
          });
        }
        return result;
      }
    },
  });
}
