import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { ASK_ROOTS, roots } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** input-required-result-basic-list-roots. */
export default inputTool({
  name: 'input_required_result_list_roots',
  title: "Ask for the client's roots (MRTR)",
  description: 'Asks the client for its roots and lists them.',
  async handler(_input, ctx) {
    const uris = roots(ctx.input.responses.client_roots);
    if (uris === undefined) return inputRequired({ client_roots: ASK_ROOTS });
    return textReply(`Client roots: ${uris.join(', ') || '(none)'}`);
  },
});
