import { PRODUCTS, defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'list_available_products',
  title: 'Licensed versus permitted products',
  description: 'Products licensed, in your scope, usable (both), and the differences between the two.',
  input: {},
  output: {
    all: z.array(z.enum(PRODUCTS)),
    licensed: z.array(z.enum(PRODUCTS)),
    in_scope: z.array(z.enum(PRODUCTS)),
    available: z.array(z.enum(PRODUCTS)),
    out_of_scope: z.array(z.enum(PRODUCTS)),
    not_licensed: z.array(z.enum(PRODUCTS)),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    const licensed = ctx.kernel.licensedProducts();
    const scope = ctx.kernel.permissions(ctx.caller).products;
    return structuredReply({
      all: [...PRODUCTS],
      licensed,
      in_scope: scope,
      available: licensed.filter((p) => scope.includes(p)),
      out_of_scope: licensed.filter((p) => !scope.includes(p)),
      not_licensed: scope.filter((p) => !licensed.includes(p)),
    });
  },
});
