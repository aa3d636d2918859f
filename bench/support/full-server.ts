// The full server for bench/mcp-throughput.ts: the real kernel (TLS, bearer JWT, IP guard, RBAC, rate
// limit, audit, metrics) with the test fixture plugins, in its own process. Prints its URL.
import { join } from 'node:path';
import { startKernel } from '../../kernel/lifecycle/startup.ts';

const fixtures = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'plugins');
const kernel = await startKernel({ extraPluginDirs: [fixtures] });
process.stdout.write(`URL ${kernel.url}\n`);
process.on('SIGTERM', () => {
  void kernel.stop('SIGTERM').then(() => process.exit(0));
});
