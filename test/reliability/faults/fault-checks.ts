// What every fault test checks around a call: its coded error and how long it took, and that the
// node's side of every connection is closed soon after (nothing left hanging).
import assert from 'node:assert/strict';
import type { ProductStack } from '../../helpers/product-stack.ts';

/** Calls a tool as the admin; it must fail. Its error, message and duration. */
export async function timedFail(
  s: ProductStack,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ error: string; message: string; ms: number }> {
  const started = performance.now();
  const r = await s.fails('admin', tool, args);
  return { ...r, ms: performance.now() - started };
}

/** Waits up to 3 s for the node to see every connection closed. */
export async function nothingOpen(node: { open(): number }): Promise<void> {
  const until = Date.now() + 3_000;
  while (node.open() > 0) {
    if (Date.now() > until) assert.fail(`${node.open()} connection(s) to the node are still open`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
