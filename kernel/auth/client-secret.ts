import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';

/** bcrypt reads at most 72 bytes; a longer presented secret is refused rather than silently truncated. */
const BCRYPT_MAX_BYTES = 72;

/** A new OAuth client secret: 256 random bits, base64url (43 characters). */
export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashClientSecret(secret: string, cost: number): Promise<string> {
  return bcrypt.hash(secret, cost);
}

/**
 * Checks presented secrets against bcrypt hashes. An unknown client is compared against a dummy
 * hash of the same cost, so the answer time does not reveal which client names exist.
 */
export class ClientSecretVerifier {
  private dummy: Promise<string> | undefined;

  constructor(private readonly cost: number) {}

  async verify(presented: string, hash: string | undefined): Promise<boolean> {
    const tooLong = Buffer.byteLength(presented, 'utf8') > BCRYPT_MAX_BYTES;
    const target = hash ?? (await (this.dummy ??= bcrypt.hash(newClientSecret(), this.cost)));
    const match = await bcrypt.compare(tooLong ? '' : presented, target);
    return match && hash !== undefined && !tooLong && presented.length > 0;
  }
}
