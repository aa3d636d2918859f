import { sign, type KeyObject } from 'node:crypto';
import { PSS_HASH, PSS_PADDING, PSS_SALT_LENGTH } from '../integrity/signature.ts';

/** The text of a detached signature file: base64 of the RSA-PSS signature (see integrity/signature.ts). */
export function signDetached(privateKey: KeyObject, data: Uint8Array): string {
  const sig = sign(PSS_HASH, data, { key: privateKey, padding: PSS_PADDING, saltLength: PSS_SALT_LENGTH });
  return `${sig.toString('base64')}\n`;
}
