import { structuredReply, z } from '../../../kernel/sdk/index.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { cucTool } from '../shared.ts';

/** `cuc_get_version`: the product version from CUPI, the one call every CUC release answers alike. */
export default cucTool({
  name: 'get_version',
  title: 'Unity Connection version',
  description: "The Unity Connection node's version (CUPI GET /vmrest/version/product).",
  input: { host: hostField },
  output: { host: z.string(), name: z.string(), version: z.string() },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: { minProfile: 'auditor' },
  service: 'cupi',
  summary: () => ({ operation: 'GET /vmrest/version/product' }),
  async handler(input, ctx) {
    const v = await ctx.shared.cupi.version(ctx.vault, input.host, ctx.signal);
    return structuredReply({ host: input.host, name: v.name, version: v.version });
  },
});
