// The vault's public surface: the kernel wires `Vault`; tools reach a `ClientVault` through their context.
export { Vault } from './vault.ts';
export { ClientVault, type CredentialEntry, type CredentialOperation } from './client-vault.ts';
export {
  ClientHostKeys,
  HostKeyError,
  sshHost,
  type HostKeyRefusal,
  type HostKeyState,
  type HostKeyStatus,
  type TrustAction,
} from './host-keys.ts';
export { hostVerifier, type TofuHostVerifier } from './host-verifier.ts';
export {
  ClientCertificates,
  CertificateTrustError,
  certificateFacts,
  normaliseCertFingerprint,
  type CertificateFacts,
  type CertificateRefusal,
  type CertificateState,
  type CertificateStatus,
} from './host-certificates.ts';
export { sshFingerprint, sshKeyType, normaliseFingerprint, FINGERPRINT_PATTERN } from './fingerprint.ts';
export {
  CREDENTIAL_KINDS,
  KINDS_BY_PRODUCT,
  PRODUCTS,
  normaliseHost,
  type CredentialKind,
  type Product,
} from './identity.ts';
export { PBKDF2_DIGEST, PBKDF2_ITERATIONS, DERIVED_KEY_BYTES, SALT_BYTES } from './key-derivation.ts';
export { credentialSecretSchema, type CredentialSecret } from './sealed-record.ts';
export { NODE_PORTS, checkCertificatePem, credentialTarget, splitAddress } from './credential-options.ts';
export { MASTER_SECRET_BYTES, masterSecretPath } from './master-secret.ts';
export type { VaultAudit, VaultLogger } from './vault-types.ts';
