// Run as a child (soap-library.test.ts): starts the lab and the real kernel with the shipped plugins,
// then prints, as JSON, whether strong-soap was loaded after startup, after tools that do not parse an
// AXL schema, and after one cucm_axl_call. strong-soap is CommonJS: whatever loads it lands in the
// CommonJS module cache, which is what is read here.
import { createRequire } from 'node:module';
import { prepareCucm, startProductStack } from '../../../helpers/product-stack.ts';

const require = createRequire(import.meta.url);
const soapLoaded = (): boolean =>
  Object.keys(require.cache).some((k) => /[\\/]node_modules[\\/]strong-soap[\\/]/.test(k));
const globalizeLoaded = (): boolean =>
  Object.keys(require.cache).some((k) => /[\\/]node_modules[\\/]strong-globalize[\\/]/.test(k));

const s = await startProductStack();
const out: Record<string, boolean> = {};
try {
  out.afterStartup = soapLoaded();
  await s.ok('auditor', 'infra_health', {});
  await s.ok('admin', 'cucm_list_credentials', {});
  out.afterOtherTools = soapLoaded();
  await prepareCucm(s);
  await s.ok('auditor', 'cucm_axl_call', {
    host: s.node('cucm').name,
    operation: 'executeSQLQuery',
    args: { sql: 'select name from device' },
  });
  out.afterAxlCall = soapLoaded();
  // strong-soap's messages come from the stand-in (soap-library.ts), not strong-globalize's catalogue walk.
  out.globalizeAfterAxlCall = globalizeLoaded();
} finally {
  await s.stop();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
