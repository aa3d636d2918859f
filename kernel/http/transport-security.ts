import type { SecureContextOptions, TlsOptions } from 'node:tls';

/**
 * Only forward-secret AEAD suites. For TLS 1.2 that is ECDHE with AES-GCM or ChaCha20-Poly1305 (no
 * CBC, no static RSA or finite-field DHE key exchange); the TLS 1.3 suites are all AEAD and all
 * forward secret. Node reads the TLS_* names as the TLS 1.3 list and the rest as the TLS 1.2 list.
 */
export const TLS_CIPHERS = [
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_AES_128_GCM_SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
].join(':');

/**
 * The protocol policy of the listener. Repeated on every certificate swap: setSecureContext builds a
 * new context from what it is given, so a renewal without these would fall back to Node's defaults.
 */
export const TLS_POLICY: Pick<TlsOptions & SecureContextOptions, 'minVersion' | 'maxVersion' | 'ciphers'> & {
  honorCipherOrder: boolean;
} = {
  minVersion: 'TLSv1.2',
  maxVersion: 'TLSv1.3',
  ciphers: TLS_CIPHERS,
  honorCipherOrder: true,
};

/** Strict-Transport-Security (RFC 6797) on every answer, errors and parser refusals included: one year. */
export const HSTS_HEADER = 'Strict-Transport-Security';
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';
