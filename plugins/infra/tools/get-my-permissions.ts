import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'get_my_permissions',
  title: 'My permissions',
  description:
    'Your authoritative RBAC matrix, read from the same objects every call is checked against: profile, products, permitted and refused tools, allowlists (AXL, RIS, SSH, CUPI) and rate limits per product and service with what remains in the current window.',
  input: {},
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ ...ctx.kernel.permissions(ctx.caller) });
  },
});
