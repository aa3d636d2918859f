// Semantic versions (semver.org 2.0.0) as far as upgrades need them: parse and order. Written here rather
// than depending on a package, since the runner must work from the installed tree alone.

const SEMVER =
  /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** Pre-release identifiers (`1.2.0-rc.1` gives ['rc', '1']); empty for a release. */
  pre: string[];
}

export function isSemVer(text: string): boolean {
  return SEMVER.test(text);
}

export function parseSemVer(text: string): SemVer {
  const m = SEMVER.exec(text);
  if (!m) throw new Error(`"${text}" is not a semantic version (x.y.z)`);
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    pre: m[4] ? m[4].split('.') : [],
  };
}

/** Negative when a < b, 0 when equal in precedence (build metadata ignored), positive when a > b. */
export function compareSemVer(a: string, b: string): number {
  const x = parseSemVer(a);
  const y = parseSemVer(b);
  for (const k of ['major', 'minor', 'patch'] as const) if (x[k] !== y[k]) return x[k] - y[k];
  // A release ranks above its own pre-releases (1.0.0-rc.1 < 1.0.0).
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}
