// Module hooks for lazy-modules-probe.ts: every URL loaded through the ES module loader is posted to
// the probe, which then knows which ES-only packages (node-tar) a server loaded, and when.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, nextLoad) {
  port.postMessage(url);
  return nextLoad(url, context);
}
