import { structuredReply } from '../../../kernel/sdk/index.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { cucTool } from '../shared.ts';

/** `cuc_get_version`: the product version from CUPI, the one call every CUC release answers alike. */
export default cucTool({
  name: 'get_version',
  title: 'Unity Connection version',
  description:
    'Asks a Unity Connection node for its product version through CUPI (GET /vmrest/version/product) with your stored CUPI credentials, e.g. {"name":"Cisco Unity Connection Version","version":"15.0.1.10000-1"}.',
  input: { host: hostField },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: { minProfile: 'auditor' },
  service: 'cupi',
  summary: () => ({ operation: 'GET /vmrest/version/product' }),
  async handler(input, ctx) {
    const v = await ctx.shared.cupi.version(ctx.vault, input.host, ctx.signal);
    return structuredReply({ host: input.host, name: v.name, version: v.version });
  },
});
