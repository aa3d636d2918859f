import { inputRequired, textReply, z } from '../../../../../../kernel/sdk/index.ts';
import { askModel, sampled } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** tools-call-sampling (2025-11-25: the SDK sends the request to the client and calls again). */
export default inputTool({
  name: 'sampling',
  title: 'Sampling',
  description: "Sends the prompt given to the client's model.",
  input: { prompt: z.string().max(4000) },
  async handler(input, ctx) {
    const text = sampled(ctx.input.responses.reply);
    if (text === undefined) return inputRequired({ reply: askModel(input.prompt, 100) });
    return textReply(`LLM response: ${text}`);
  },
});
