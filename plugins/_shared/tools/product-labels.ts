// How tools name products and credential kinds in their titles, descriptions and messages.
import type { Product } from '../../../kernel/sdk/index.ts';

export const PRODUCT_LABEL: Record<Product, string> = {
  cucm: 'CUCM',
  imp: 'IM&P',
  cuc: 'Unity Connection',
};

/** The label with its article, for running text: "an IM&P node", "a CUCM host". */
export const A_PRODUCT: Record<Product, string> = {
  cucm: 'a CUCM',
  imp: 'an IM&P',
  cuc: 'a Unity Connection',
};

export type CredentialKindName = 'axl' | 'os' | 'phone' | 'cupi';

export const KIND_LABEL: Record<CredentialKindName, string> = {
  axl: 'AXL',
  os: 'OS Admin CLI (SSH)',
  phone: 'phone web access (HTTP Basic)',
  cupi: 'CUPI (REST)',
};

/** Tool-name infix per kind: `cucm_store_credentials`, `cucm_os_store_credentials`, `cucm_phone_...`. */
export function kindPrefix(kind: CredentialKindName, primary: CredentialKindName): string {
  return kind === primary ? '' : `${kind}_`;
}

export interface CredentialToolSpec {
  product: Product;
  kind: CredentialKindName;
  /** The product's main kind, named without an infix (axl for CUCM and IM&P, cupi for CUC). */
  primary: CredentialKindName;
}
