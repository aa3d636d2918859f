import { BadRequestError, NotFoundError, defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

/** Candidates listed in an ambiguity error; more are counted, not listed. */
const MAX_CANDIDATES = 20;

export default defineTool({
  name: 'get_doc',
  title: 'Get a doc',
  description:
    'The full content of a doc or resource, by URI (e.g. cuc://cupi/reference) or by the name infra_list_docs shows. ' +
    'A name several docs share (e.g. "overview" in each product\'s CLI guide) is refused with BAD_REQUEST listing their URIs: call again with one of them.',
  input: {
    name: z.string().min(1).max(256).describe('A resource URI or a doc name'),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(input, ctx) {
    let uri = input.name;
    if (!/^[a-z]+:\/\//.test(uri)) {
      const hits = ctx.kernel.catalogue(ctx.caller).docs.filter((d) => !d.template && d.name === input.name);
      const [hit] = hits;
      if (!hit) throw new NotFoundError(`no doc named ${input.name.slice(0, 80)}`);
      if (hits.length > 1) {
        // Never one of them silently: the caller picks, by URI, from the list it is given.
        const shown = hits.slice(0, MAX_CANDIDATES).map((d) => `${d.uri} (${d.title})`);
        const more = hits.length > MAX_CANDIDATES ? `; and ${hits.length - MAX_CANDIDATES} more` : '';
        throw new BadRequestError(
          `the doc name "${input.name}" is ambiguous: ${hits.length} docs have it. ` +
            `Call infra_get_doc again with one of these URIs: ${shown.join('; ')}${more}`,
        );
      }
      uri = hit.uri;
    }
    return structuredReply({ ...(await ctx.kernel.readDoc(ctx.caller, uri)) });
  },
});
