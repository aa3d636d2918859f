// The server as its own process for the soak (bench/soak.ts, test/reliability/load/soak.test.ts): what
// kernel/main.ts starts, with every shipped plugin, plus the test vendor trusted so that the license the
// soak writes into the state directory is valid (a development checkout has no signed manifest to vouch
// for a publisher; the demo signs a copy of the tree instead, which costs far more than a soak run).
// Prints the same "listening on" line as kernel/main.ts. Under --expose-gc, SIGUSR2 runs a full garbage
// collection and prints "gc done", so that the soak compares the memory the server holds, not where V8
// happens to be in its GC cycle.
import { startKernel } from '../../kernel/lifecycle/startup.ts';
import { testVendor } from '../../test/helpers/license.ts';

// Before the "listening" line: a SIGUSR2 without a handler would end the process.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc)
  process.on('SIGUSR2', () => {
    gc();
    process.stdout.write('gc done\n');
  });
const kernel = await startKernel({ extraPublisherKeys: [testVendor().publisherKey] });
process.on('SIGTERM', () => {
  void kernel.stop('SIGTERM').then(() => process.exit(0));
});
process.stdout.write(`uc-mcp-server listening on ${kernel.url}\n`);
