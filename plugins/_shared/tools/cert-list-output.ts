// The structured answer of `<product>_cert_list` (its MCP outputSchema).
import { z } from '../../../kernel/sdk/index.ts';

const listed = { name: z.string(), unit: z.string(), description: z.string() };

export const ownCertificate = z.object({
  ...listed,
  subject: z.string().nullable(),
  issuer: z.string().nullable(),
  not_before: z.string().nullable(),
  not_after: z.string().nullable().describe('ISO 8601; the node prints its own time zone, read as UTC'),
  days_left: z.number().nullable().describe('Whole days until not_after (negative: expired)'),
  serial: z.string().nullable(),
  key_type: z.string().nullable(),
  key_bits: z.number().nullable(),
  signature_algorithm: z.string().nullable(),
  self_signed: z.boolean().nullable(),
  source: z.enum(['pem', 'text', 'none']).describe('pem: read from the certificate the node printed'),
});

export const certListOutput = {
  host: z.string(),
  nodes: z.array(
    z.object({
      node: z.string(),
      role: z.string().nullable(),
      credential_host: z.string().nullable(),
      reached: z.boolean(),
      error: z.object({ error: z.string(), message: z.string() }).nullable(),
      own: z.array(ownCertificate),
      trust: z.array(z.object(listed)).nullable(),
      unrecognised: z.array(z.object({ command: z.string(), excerpt: z.string() })),
      errors: z.array(z.object({ command: z.string(), error: z.string(), message: z.string() })),
    }),
  ),
};
