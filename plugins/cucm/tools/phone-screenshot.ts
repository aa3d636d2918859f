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
    "Captures what an IP phone's display shows (GET /CGI/Screenshot with your stored phone credential, see cucm_phone_store_credentials) and returns it as a PNG image. The user must control the device in CUCM and the phone's web access must be enabled. BMP screenshots of older phones and CiscoIPPhoneImage XML of old firmware are converted to PNG. Plain HTTP, the default for phones, sends the credentials unencrypted (a limitation of the phone); store the credential with scheme https where the phone serves it (98xx need it).",
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
