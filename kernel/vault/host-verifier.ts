import { SSHError } from '../errors/index.ts';
import { sshFingerprint, sshKeyType } from './fingerprint.ts';
import type { ClientHostKeys } from './host-keys.ts';
import type { Product } from './identity.ts';

/**
 * What ssh2's `Client.connect({ hostVerifier })` accepts (ssh2 1.17: `(key, verify) => void`, the key
 * being the raw host key blob because `hostHash` is left unset), plus what it decided.
 */
export interface TofuHostVerifier {
  (key: Buffer, verify: (ok: boolean) => void): void;
  /** Why the host was refused (HostKeyError for trust decisions), once ssh2 has asked. */
  readonly rejection: SSHError | undefined;
  /** The fingerprint the host presented, once ssh2 has asked. */
  readonly fingerprint: string | undefined;
}

/**
 * A host verifier bound to one client's trust store, one product and one host. ssh2 calls it during
 * key exchange, before any authentication is sent, so a refusal means the password never leaves
 * the server. After a failed connect, throw `verifier.rejection` when set: it says which tool to call
 * and shows the fingerprints, where ssh2's own error only says "Host denied".
 *
 * Do not set `hostHash` alongside it: the verifier needs the raw key blob.
 */
export function hostVerifier(view: ClientHostKeys, product: Product, host: string): TofuHostVerifier {
  let rejection: SSHError | undefined;
  let fingerprint: string | undefined;
  const verify = (key: Buffer, done: (ok: boolean) => void): void => {
    let ok = false;
    try {
      if (!Buffer.isBuffer(key))
        throw new SSHError('the SSH client passed a hashed host key; unset hostHash');
      fingerprint = sshFingerprint(key);
      ok = view.checkHostKey(product, host, fingerprint, sshKeyType(key)) === 'trusted';
    } catch (err) {
      // Fail closed: whatever went wrong, the connection does not proceed.
      rejection =
        err instanceof SSHError
          ? err
          : new SSHError('the SSH host key could not be checked; the connection was refused', { cause: err });
    }
    done(ok);
  };
  return Object.defineProperties(verify, {
    rejection: { get: () => rejection, enumerable: true },
    fingerprint: { get: () => fingerprint, enumerable: true },
  }) as TofuHostVerifier;
}
