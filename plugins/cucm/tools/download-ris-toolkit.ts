import { structuredReply, z } from '../../../kernel/sdk/index.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { RIS_PATH } from '../ris/constants.ts';
import { cucmTool } from '../shared.ts';

/** `cucm_download_ris_toolkit`: the node's RisPort70 WSDL into the local schema cache. */
export default cucmTool({
  name: 'download_ris_toolkit',
  title: 'Download the CUCM RisPort70 schema',
  description:
    "Downloads the RisPort70 WSDL from a CUCM node (/realtimeservice2/services/RISService70?wsdl) with your stored AXL credentials, checks that it is RisPort70 (namespace http://schemas.cisco.com/ast/soap, selectCmDevice present, size-bounded) and stores it in the local schema cache (ris/70/: RisPort70 is versioned by its name, the same for every CUCM release). Needed once before cucm_risport_query works. Does not spend the node's 15 requests per minute of RIS queries; it counts as one call against your own RIS rate limit, as every request to the node's RIS service does.",
  input: { host: hostField },
  output: {
    host: z.string(),
    schema_folder: z.string(),
    operations: z.array(z.string()),
    bytes: z.number(),
    sha256: z.string(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: { minProfile: 'admin' },
  // A WSDL GET is no RIS query for the node's per-minute limit, but it is a request to the node's RIS
  // service: the client's RIS window counts it, as every request to a node counts against its service.
  service: 'ris',
  task: 'optional',
  summary: () => ({ operation: `GET ${RIS_PATH}?wsdl` }),
  async handler(input, ctx) {
    const result = await ctx.shared.ris.download(ctx.vault, input.host, ctx.signal);
    return structuredReply({ host: input.host, ...result });
  },
});
