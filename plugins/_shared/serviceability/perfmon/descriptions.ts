// Counter descriptions a node gave, kept per node: they are fixed for a release, and each one costs a
// request of the node's PerfMon budget. Bounded, oldest out first.
const MAX_ENTRIES = 5000;

export class DescriptionCache {
  readonly #map = new Map<string, string>();

  get(node: string, counter: string): string | undefined {
    return this.#map.get(`${node}|${counter}`);
  }

  set(node: string, counter: string, description: string): void {
    const key = `${node}|${counter}`;
    this.#map.delete(key);
    this.#map.set(key, description);
    if (this.#map.size > MAX_ENTRIES) this.#map.delete(this.#map.keys().next().value as string);
  }
}
