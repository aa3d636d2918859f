import { defineTool, structuredReply, z, type Product } from '../../../kernel/sdk/index.ts';
import { hostField } from './credential-input.ts';
import { A_PRODUCT } from './product-labels.ts';
import { certificateOutput } from './output-shapes.ts';

/**
 * `<product>_trust_certificate`: pins or rejects the HTTPS certificate a node presented on first contact
 * (or after a change). A tool of its own rather than os_trust_fingerprint extended: another service
 * (Tomcat, not the VOS CLI), another fingerprint form (SHA-256 hex pairs, not SHA256:base64) and
 * another store, so neither tool's input has to say which of the two it means.
 */
export function trustCertificateTool(product: Product) {
  return defineTool({
    name: 'trust_certificate',
    title: `Trust or reject ${A_PRODUCT[product]} HTTPS certificate`,
    description: `Decides on the HTTPS certificate ${A_PRODUCT[product]} node presented when its credential pins no certificate or CA and the system CAs do not verify it: "trust" pins it (later connections must present exactly it), "reject" refuses it. The fingerprint must be the SHA-256 one (AB:CD:...) the refused call reported; compare it first with the node's own (show cert own tomcat, or OS Administration > Certificate Management). A credential's cert_pem or ca_cert_pem, when given, takes precedence.`,
    input: {
      host: hostField,
      fingerprint: z
        .string()
        .min(1)
        .max(128)
        .describe('SHA-256 fingerprint AB:CD:... (32 hex pairs), as the refusal showed it'),
      action: z.enum(['trust', 'reject']).describe('trust pins the certificate; reject refuses it'),
    },
    output: certificateOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    access: { minProfile: 'admin' },
    service: 'default',
    async handler(input, ctx) {
      const status = ctx.vault.certificates.decide(product, input.host, input.action, input.fingerprint);
      return structuredReply({ ...status });
    },
  });
}
