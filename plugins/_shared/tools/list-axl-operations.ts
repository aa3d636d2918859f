import { BadRequestError, structuredReply, toolsFor, z, type Product } from '../../../kernel/sdk/index.ts';
import { classifyAxl } from '../changes/classify.ts';
import { hostField } from './credential-input.ts';
import type { AxlState } from './plugin-state.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { listAxlOperationsOutput } from './output-shapes.ts';

/** `<product>_list_axl_operations`: the cached WSDL's operations, or one operation's request fields. */
export function listAxlOperationsTool(product: Product, downloadTool: string) {
  return toolsFor<AxlState>()({
    name: 'list_axl_operations',
    title: `List ${PRODUCT_LABEL[product]} AXL operations`,
    description: `Lists the cached AXL schema's operations (${downloadTool}), filtered by pattern; with operation, its request fields to depth: whether each is required, the alternatives of a choice (one of them is required when the choice is), and enumerated values. change_classes (or change_class) says what each operation does on the node: read, change, or destructive (removes something, interrupts service or cannot be put back). Version: version, else the one negotiated with host, else the newest.`,
    input: {
      host: hostField.optional(),
      version: z
        .string()
        .regex(/^\d+\.\d+$/)
        .optional()
        .describe('AXL schema version, e.g. 15.0'),
      pattern: z.string().max(128).optional().describe('Substring of operation names, e.g. "Phone"'),
      operation: z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9]{0,127}$/)
        .optional()
        .describe('Describe this operation'),
      depth: z.number().int().min(1).max(6).default(3).describe('Nesting depth'),
    },
    output: listAxlOperationsOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: { minProfile: 'auditor' },
    service: 'axl',
    // Reads the local schema cache; the node is only asked (getCCMVersion) for its version.
    summary: (i) => ({
      operation: i.operation ? `describe ${i.operation}` : 'list operations',
      detail:
        `${i.pattern ? `pattern=${i.pattern} ` : ''}schema ` +
        (i.version ?? (i.host ? 'negotiated with the node' : 'newest cached')),
    }),
    async handler(input, ctx) {
      const cache = ctx.shared.axl.cache;
      let version = input.version;
      if (!version && input.host) {
        version = (await ctx.shared.axl.connect(ctx.vault, input.host, ctx.signal)).client.version;
      }
      version ??= cache.versions().at(-1);
      if (!version)
        throw new BadRequestError(`no AXL schema is in the local cache; run ${downloadTool} first`);
      if (input.operation) {
        const fields = await cache.describe(version, input.operation, input.depth);
        return structuredReply({
          version,
          operation: input.operation,
          change_class: classifyAxl(input.operation).class,
          request_fields: fields,
        });
      }
      const operations = await cache.operations(version, input.pattern);
      return structuredReply({
        version,
        ...(input.pattern ? { pattern: input.pattern } : {}),
        count: operations.length,
        operations,
        change_classes: Object.fromEntries(operations.map((op) => [op, classifyAxl(op).class])),
      });
    },
  });
}
