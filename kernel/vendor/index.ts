// Vendor-side signing: key pairs, manifests, bundles, licenses and staged signed installs. Used by
// scripts/vendor.ts, scripts/update_manifest.ts, the demo and tests; never needed by a running server.
export {
  generateVendorKeyPair,
  writeVendorKeyPair,
  loadVendorPrivateKey,
  publicPemOf,
  isPublicHalf,
  isInside,
  assertPublisherId,
  type VendorKeyPair,
} from './keys.ts';
export { signDetached } from './sign.ts';
export { buildManifest, signManifest, findInstalledPublisher, type SignManifestOptions } from './manifest.ts';
export { signBundle, type SignBundleOptions } from './bundle.ts';
export { issueLicense, parseExpiry, parseProducts, type IssueLicenseOptions } from './license.ts';
export { stageSignedTree, type StageOptions } from './stage.ts';
