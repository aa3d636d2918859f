import { PRODUCTS, WRITE_MODES, defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'get_my_permissions',
  title: 'My permissions',
  description:
    'Your RBAC matrix, as every call is checked: profile, products, permitted and refused tools, allowlists, writes (direct, confirm or preview-only: how a change goes ahead; a destructive one always needs confirmation), rate limits and what remains of them.',
  input: {},
  output: {
    client: z.string(),
    profile: z.string(),
    products: z.array(z.enum(PRODUCTS)),
    tools: z.object({ allowed: z.array(z.string()), denied: z.array(z.string()) }),
    allowlists: z.record(z.string(), z.unknown()),
    allowlistNarrowing: z.record(z.string(), z.unknown()),
    writes: z.enum(WRITE_MODES),
    rateLimits: z.record(z.string(), z.record(z.string(), z.looseObject({ limit: z.number() }))),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({
      ...ctx.kernel.permissions(ctx.caller),
      rateLimits: await ctx.kernel.rateLimits(ctx.caller),
    });
  },
});
