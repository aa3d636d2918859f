import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { accepted, askUser } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/**
 * input-required-result-basic-elicitation (and -result-type, -missing-input-response,
 * -ignore-extra-params, -validate-input): asks the user's name until an accepted answer carries one.
 */
export default inputTool({
  name: 'input_required_result_elicitation',
  title: 'Ask the user (MRTR)',
  description: "Asks the client's user for a name, then greets them.",
  async handler(_input, ctx) {
    const name = accepted(ctx.input.responses.user_name)?.name;
    if (typeof name !== 'string')
      return inputRequired({ user_name: askUser('What is your name?', ['name']) });
    return textReply(`Hello, ${name}!`);
  },
});
