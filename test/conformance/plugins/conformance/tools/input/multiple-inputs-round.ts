import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { ASK_ROOTS, accepted, askModel, askUser, roots, sampled } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** input-required-result-multiple-input-requests: three kinds of request in one round. */
export default inputTool({
  name: 'input_required_result_multiple_inputs',
  title: 'Ask for three things (MRTR)',
  description: 'Asks the user, the model and the client for their roots at once.',
  async handler(_input, ctx) {
    const r = ctx.input.responses;
    const name = accepted(r.user_name)?.name;
    const greeting = sampled(r.greeting);
    const uris = roots(r.client_roots);
    if (ctx.input.state !== 'all-three' || typeof name !== 'string' || greeting === undefined || !uris)
      return inputRequired(
        {
          user_name: askUser('What is your name?', ['name']),
          greeting: askModel('Generate a greeting', 50),
          client_roots: ASK_ROOTS,
        },
        'all-three',
      );
    return textReply(`${greeting} ${name} (roots: ${uris.join(', ') || 'none'})`);
  },
});
