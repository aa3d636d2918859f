import { join } from 'node:path';

/** The files of one client below clients/<name>/. */
export interface ClientPaths {
  dir: string;
  secrets: string;
  /** Operator-editable settings (redirect URIs, narrowing). */
  settings: string;
  /** The JWT written at every startup. */
  token: string;
  /** The plaintext OAuth client secret, written once when the client is created. */
  clientSecret: string;
  /** Server-owned record: the secret's bcrypt hash and the current startup token's jti. */
  registration: string;
  /** jti and expiry of every unexpired token issued to the client (revoked when it is purged). */
  issued: string;
}

export function clientPaths(clientsDir: string, name: string): ClientPaths {
  const dir = join(clientsDir, name);
  const secrets = join(dir, 'secrets');
  return {
    dir,
    secrets,
    settings: join(dir, 'client.json'),
    token: join(secrets, '.token'),
    clientSecret: join(secrets, '.client_secret'),
    registration: join(secrets, 'registration.json'),
    issued: join(secrets, 'issued_tokens.json'),
  };
}
