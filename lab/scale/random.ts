// A small seeded generator (sfc32 over a 128-bit FNV-1a state): the scale data must be the same byte
// for byte from one run to the next, so nothing here may touch Math.random or crypto.randomUUID.

function fnv1a(text: string, basis: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** One independent stream per (seed, purpose): adding data to one stream never shifts another. */
  constructor(seed: string, stream: string) {
    const text = `${seed}\u0000${stream}`;
    this.a = fnv1a(text, 0x811c9dc5);
    this.b = fnv1a(text, 0x9e3779b9);
    this.c = fnv1a(text, 0x85ebca6b);
    this.d = fnv1a(text, 0xc2b2ae35) | 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.u32() / 0x1_0000_0000) * n);
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)] as T;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.u32() / 0x1_0000_0000 < p;
  }

  hex(digits: number): string {
    let out = '';
    while (out.length < digits) out += this.u32().toString(16).padStart(8, '0');
    return out.slice(0, digits);
  }

  /** A version-4-shaped UUID, lowercase as the lab stores pkids. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** Pkids for a database, drawn from the seed so that two runs give the same rows. */
export function pkidSource(seed: string, stream: string): () => string {
  const rng = new Rng(seed, stream);
  return () => rng.uuid();
}
