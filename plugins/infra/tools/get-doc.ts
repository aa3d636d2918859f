import { NotFoundError, defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'get_doc',
  title: 'Get a doc',
  description:
    'The full content of a doc or resource, by URI (e.g. cuc://cupi/reference) or by the name infra_list_docs shows.',
  input: {
    name: z.string().min(1).max(256).describe('A resource URI or a doc name'),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(input, ctx) {
    let uri = input.name;
    if (!/^[a-z]+:\/\//.test(uri)) {
      const hit = ctx.kernel.catalogue(ctx.caller).docs.find((d) => !d.template && d.name === input.name);
      if (!hit) throw new NotFoundError(`no doc named ${input.name.slice(0, 80)}`);
      uri = hit.uri;
    }
    return structuredReply({ ...(await ctx.kernel.readDoc(ctx.caller, uri)) });
  },
});
