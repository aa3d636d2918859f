import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { askModel, sampled } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/**
 * server-stateless: needs sampling whatever the client declared, so a client without it is refused
 * (-32021 MissingRequiredClientCapability) before anything is asked.
 */
export default inputTool({
  name: 'missing_capability',
  title: 'Needs sampling (MRTR)',
  description: "Needs the client's model; refused to clients that declare no sampling.",
  async handler(_input, ctx) {
    const text = sampled(ctx.input.responses.completion);
    if (text === undefined) return inputRequired({ completion: askModel('Say something', 20) });
    return textReply(text);
  },
});
