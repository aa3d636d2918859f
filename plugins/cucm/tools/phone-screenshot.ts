import { structuredReply, z } from '../../../kernel/sdk/index.ts';
import { retryPolicyOf } from '../../_shared/axl/transport.ts';
import { hostField } from '../../_shared/tools/credential-input.ts';
import { fetchScreenshot, phoneEndpoint } from '../phone/screenshot-client.ts';
import { screenshotToPng } from '../phone/screenshot-image.ts';
import { cucmTool } from '../shared.ts';

export default cucmTool({
  name: 'phone_screenshot',
  title: 'Capture an IP phone display',
  description:
    "An IP phone's display as PNG (GET /CGI/Screenshot), with your phone credential. The user must control the device and its web access be on. HTTP sends the credential unencrypted: use scheme https where the phone serves it (98xx).",
  input: {
    host: hostField.describe("The phone's name or address: the key its phone credential is stored under"),
    timeout_s: z
      .number()
      .int()
      .min(1)
      .max(120)
      .default(20)
      .describe('Seconds to wait for the phone, per attempt'),
  },
  output: {
    host: z.string(),
    width: z.number(),
    height: z.number(),
    source_format: z.string(),
    bytes: z.number(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: { minProfile: 'auditor' },
  service: 'phone',
  summary: () => ({ operation: 'GET /CGI/Screenshot' }),
  async handler(input, ctx) {
    const secret = await ctx.vault.get('cucm', 'phone', input.host);
    const node = phoneEndpoint(input.host, secret, ctx.shared.addresses);
    const io = ctx.shared.nodeIo;
    const raw = await fetchScreenshot(node, {
      timeoutMs: input.timeout_s * 1000,
      signal: ctx.signal,
      ...(io ? { retry: retryPolicyOf(io) } : {}),
    });
    const shot = screenshotToPng(raw);
    return structuredReply(
      {
        host: input.host,
        width: shot.width,
        height: shot.height,
        source_format: shot.sourceFormat,
        bytes: shot.png.length,
      },
      [{ type: 'image', data: shot.png.toString('base64'), mimeType: 'image/png' }],
    );
  },
});
