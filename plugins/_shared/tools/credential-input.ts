// The input every *_store_credentials / *_update_credentials tool takes, and its conversion into the
// vault's secret. TLS material is checked here so a wrong paste fails at store time, not at first use.
import { BadRequestError, checkCertificatePem, z, type CredentialSecret } from '../../../kernel/sdk/index.ts';
import { splitAddress } from '../node/endpoint.ts';

const PEM = z
  .string()
  .max(32 * 1024)
  .regex(/-----BEGIN CERTIFICATE-----/, 'must be a PEM certificate');

export const hostField = z.string().min(1).max(270).describe('Node name or IP, optional :port');

export const credentialInput = {
  host: hostField,
  username: z.string().min(1).max(256).describe('Login name on the node'),
  password: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe(
      "Omit it (recommended): a person enters it on the server's one-time page, so it never passes through the model. Given here it is stored encrypted, unless the server refuses passwords in arguments",
    ),
  address: z
    .string()
    .max(270)
    .optional()
    .describe('Where the service really listens, host:port, when it is not the host name and standard port'),
  ca_cert_pem: PEM.optional().describe("PEM of a CA to trust for this node only (e.g. the cluster's own CA)"),
  cert_pem: PEM.optional().describe(
    "PEM of the node's own self-signed certificate, pinned by fingerprint (for one issued by a CA, give that CA as ca_cert_pem)",
  ),
  read_only: z
    .boolean()
    .optional()
    .describe(
      'true: writes forbidden with this credential; any request that is not a read is refused before it is sent (READ_ONLY_CREDENTIAL). For audits. An update without it makes the credential writable again',
    ),
};

/** Phone web access adds the scheme: most phones serve HTTP, 98xx models only HTTPS. */
export const phoneCredentialInput = {
  ...credentialInput,
  scheme: z
    .enum(['http', 'https'])
    .optional()
    .describe('http (port 80, the default) or https (port 443; 98xx phones)'),
};

export interface CredentialArgs {
  host: string;
  username: string;
  password: string;
  address?: string | undefined;
  ca_cert_pem?: string | undefined;
  cert_pem?: string | undefined;
  scheme?: 'http' | 'https' | undefined;
  read_only?: boolean | undefined;
}

export function toSecret(a: CredentialArgs): CredentialSecret {
  const options: Record<string, string> = {};
  if (a.address !== undefined && a.address !== '') {
    if (!splitAddress(a.address)) throw new BadRequestError('address must be host:port, [v6]:port or host');
    options.address = a.address;
  }
  if (a.ca_cert_pem) options.caCertPem = checkCertificatePem(a.ca_cert_pem, 'ca_cert_pem');
  if (a.cert_pem) options.certPem = checkCertificatePem(a.cert_pem, 'cert_pem');
  if (a.scheme) options.scheme = a.scheme;
  return {
    username: a.username,
    password: a.password,
    ...(Object.keys(options).length > 0 ? { options } : {}),
    ...(a.read_only === true ? { read_only: true } : {}),
  };
}
