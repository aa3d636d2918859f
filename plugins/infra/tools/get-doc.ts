import { BadRequestError, NotFoundError, defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

/** Candidates listed in an ambiguity error; more are counted, not listed. */
const MAX_CANDIDATES = 20;

export default defineTool({
  name: 'get_doc',
  title: 'Get a doc',
  description: 'A doc in full, by URI (e.g. cuc://cupi/reference) or by its infra_list_docs name.',
  input: {
    name: z.string().min(1).max(256).describe('A resource URI or a doc name'),
  },
  output: { uri: z.string(), mimeType: z.string(), text: z.string() },
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
