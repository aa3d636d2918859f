import { PRODUCTS, defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'list_available_products',
  title: 'Licensed versus permitted products',
  description:
    'The products the license enables, the products in your scope, those you can use (both), and the difference: licensed but out of your scope, and in your scope but not licensed.',
  input: {},
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
