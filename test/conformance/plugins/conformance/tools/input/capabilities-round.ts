import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { askModel, askUser, sampled } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** input-required-result-capability-check: asks only what the client declared it can answer. */
export default inputTool({
  name: 'input_required_result_capabilities',
  title: 'Ask within the capabilities (MRTR)',
  description: 'Asks the user and/or the model, whichever the client can answer.',
  async handler(_input, ctx) {
    const { accepts, responses } = ctx.input;
    const wanted = {
      ...(accepts.elicitation && responses.user_name === undefined
        ? { user_name: askUser('What is your name?', ['name']) }
        : {}),
      ...(accepts.sampling && sampled(responses.topic) === undefined
        ? { topic: askModel('Suggest a topic', 50) }
        : {}),
    };
    if (Object.keys(wanted).length > 0) return inputRequired(wanted);
    return textReply('Nothing (more) to ask this client.');
  },
});
