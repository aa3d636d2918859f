import { inputRequired, textReply, z } from '../../../../../../kernel/sdk/index.ts';
import { askUserWith, elicitation } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** tools-call-elicitation (2025-11-25: the SDK sends the request to the client and calls again). */
export default inputTool({
  name: 'elicitation',
  title: 'Elicitation',
  description: "Shows the message given to the client's user and asks for a username and an email.",
  input: { message: z.string().max(4000) },
  async handler(input, ctx) {
    const answer = elicitation(ctx.input.responses.user);
    if (!answer)
      return inputRequired({
        user: askUserWith(input.message, {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        }),
      });
    return textReply(
      `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  },
});
