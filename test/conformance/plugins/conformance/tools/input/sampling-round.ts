import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { askModel, sampled } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** input-required-result-basic-sampling. */
export default inputTool({
  name: 'input_required_result_sampling',
  title: "Ask the client's model (MRTR)",
  description: "Asks the client's model a question and answers with its reply.",
  async handler(_input, ctx) {
    const text = sampled(ctx.input.responses.capital_question);
    if (text === undefined)
      return inputRequired({ capital_question: askModel('What is the capital of France?', 100) });
    return textReply(`The model answered: ${text}`);
  },
});
