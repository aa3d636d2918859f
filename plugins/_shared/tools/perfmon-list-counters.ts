import { NotFoundError, structuredReply, toolsFor, z, type Product } from '../../../kernel/sdk/index.ts';
import type { XmlNode } from '../node/xml-text.ts';
import type { SoapCall } from '../serviceability/client.ts';
import { PERFMON_API } from '../serviceability/perfmon/api.ts';
import { describeCounter, listCounters, listInstances } from '../serviceability/perfmon/calls.ts';
import { counterPath, needsTwoSamples, unitOf } from '../serviceability/perfmon/counters.ts';
import { DescriptionCache } from '../serviceability/perfmon/descriptions.ts';
import type { ServiceabilityState } from '../serviceability/state.ts';
import { hostField } from './credential-input.ts';
import { perfmonName, perfmonNode } from './perfmon-input.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

const counterShape = z.object({
  name: z.string(),
  unit: z.string(),
  samples: z.number(),
  description: z.string().optional(),
});

/** `<product>_perfmon_list_counters`: the PerfMon objects of a node, their counters and instances. */
export function perfmonListCountersTool(product: Product) {
  const descriptions = new DescriptionCache();
  return toolsFor<ServiceabilityState>()({
    name: 'perfmon_list_counters',
    title: `${PRODUCT_LABEL[product]} PerfMon objects and counters`,
    description: `The performance objects a ${PRODUCT_LABEL[product]} node reports through PerfMon (PerfmonService perfmonListCounter), each with its counters, their unit and whether a value needs two samples (percentages). Give object to see one object only, with each counter's description (perfmonQueryCounterDescription, one request per counter not described before, at most max_descriptions) and, with instances, its current instances (perfmonListInstance). node names the cluster node whose counters to list (default: host itself). Each node allows a limited number of PerfMon requests a minute, shared by every client.`,
    input: {
      host: hostField,
      node: perfmonNode
        .optional()
        .describe('The cluster node whose counters to list, as the cluster names it (default: host)'),
      object: perfmonName
        .optional()
        .describe('Only this object, e.g. "Cisco CallManager", "Processor", "Memory"'),
      instances: z.boolean().default(false).describe('With object: its current instances too (one request)'),
      descriptions: z.boolean().default(true).describe("With object: the counters' descriptions"),
      max_descriptions: z
        .number()
        .int()
        .min(0)
        .max(50)
        .default(20)
        .describe('Descriptions requested from the node at most (others come from the cache)'),
    },
    output: {
      host: z.string(),
      node: z.string(),
      objects: z.array(
        z.object({
          name: z.string(),
          multi_instance: z.boolean(),
          counters: z.array(counterShape),
          instances: z.array(z.string()).optional(),
        }),
      ),
      descriptions_missing: z.number().optional(),
      requests: z.number(),
      rate: z.object({ per_minute: z.number(), remaining: z.number() }),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: { allowlist: 'serviceability', subject: () => 'perfmonListCounter' },
    service: 'serviceability',
    summary: (input) => ({
      operation: 'perfmonListCounter',
      detail: `node=${String(input.node ?? input.host)}${input.object ? `; object=${String(input.object)}` : ''}`,
    }),
    async handler(input, ctx) {
      const client = ctx.shared.serviceability;
      const node = await client.endpoint(ctx.vault, input.host);
      const target = input.node ?? input.host;
      let requests = 0;
      const result = await client.session(node, async (call) => {
        const send = (c: SoapCall): Promise<XmlNode> => {
          requests++;
          return call({ ...c, ...(ctx.signal ? { signal: ctx.signal } : {}) });
        };
        const all = await listCounters(send, target, ctx.signal);
        if (input.object === undefined)
          return {
            objects: all.map((o) => ({
              name: o.name,
              multi_instance: o.multiInstance,
              counters: o.counters.map((c) => ({
                name: c,
                unit: unitOf(c),
                samples: needsTwoSamples(c) ? 2 : 1,
              })),
            })),
          };
        const found = all.find((o) => o.name === input.object);
        if (!found) {
          const names = all.slice(0, 30).map((o) => o.name);
          throw new NotFoundError(
            `${target} has no PerfMon object named ${input.object}; it has ${names.join(', ')}${all.length > names.length ? ', ...' : ''}`,
          );
        }
        const instances =
          input.instances && found.multiInstance
            ? await listInstances(send, target, found.name, ctx.signal)
            : undefined;
        let budget = input.max_descriptions;
        let missing = 0;
        const counters = [];
        for (const c of found.counters) {
          let description: string | undefined;
          if (input.descriptions) {
            description = descriptions.get(`${node.host}:${node.port}|${target}`, `${found.name}\\${c}`);
            if (description === undefined && budget > 0) {
              budget--;
              description = await describeCounter(
                send,
                counterPath({ host: target, object: found.name, counter: c }),
                ctx.signal,
              );
              descriptions.set(`${node.host}:${node.port}|${target}`, `${found.name}\\${c}`, description);
            } else if (description === undefined) missing++;
          }
          counters.push({
            name: c,
            unit: unitOf(c),
            samples: needsTwoSamples(c) ? 2 : 1,
            ...(description !== undefined ? { description } : {}),
          });
        }
        return {
          objects: [
            {
              name: found.name,
              multi_instance: found.multiInstance,
              counters,
              ...(instances ? { instances } : {}),
            },
          ],
          ...(missing > 0 ? { descriptions_missing: missing } : {}),
        };
      });
      return structuredReply({
        host: input.host,
        node: target,
        ...result,
        requests,
        rate: await client.budget(PERFMON_API, node),
      });
    },
  });
}
