// AXL schema versions per CUCM release and the HTTP 599 page a node sends for any other. Cisco's AXL
// versioning policy (developer.cisco.com/docs/axl, "Versioning"): a release serves its own schema and
// those of the previous major releases back to N-3 removed on each major, e.g. 15 serves 12.x, 14.0 and
// 15.0, 14 serves 11.x, 12.x and 14.0 (there was no 13). A request without a SOAPAction version gets
// the oldest schema served.

/** `15.0.1.11900(40)` or `14.0.1.13900-155` -> `15.0`. */
export function axlVersionOf(fullVersion: string): string {
  const m = /^(\d+)\.(\d+)/.exec(fullVersion);
  if (!m) throw new RangeError(`not a CUCM version: ${fullVersion}`);
  return `${m[1]}.${m[2]}`;
}

const SCHEMAS = ['10.0', '10.5', '11.0', '11.5', '12.0', '12.5', '14.0', '15.0'];

/** The AXL schemas a release serves, oldest first. */
export function axlSchemasFor(fullVersion: string): string[] {
  const own = axlVersionOf(fullVersion);
  const major = Number(own.split('.')[0]);
  // Majors kept: this one and the two before it that exist (13 never shipped).
  const majors = [...new Set(SCHEMAS.map((v) => Number(v.split('.')[0])))].filter((m) => m <= major);
  const kept = new Set(majors.slice(-3));
  const served = SCHEMAS.filter((v) => kept.has(Number(v.split('.')[0])) && Number(v) <= Number(own));
  return served.includes(own) ? served : [...served, own];
}

/**
 * How a node words its HTTP 599. `and`, `tomcat-x` and `majors` follow forms public AXL clients record
 * from real nodes ("... are 12.0, 12.5, 14.0 and 15.0"; the Tomcat error page with "12.x, 14.0 and
 * 15.0"; "Incorrect AXL version. Supported axl versions are 15.x", every release as a major); `comma` is
 * the bare list ("11.0,11.5,12.0"); `lines` (one version a line) is not confirmed by a public source and
 * is kept so a client's parser is held to any list layout.
 */
export type AxlVersionWording = 'and' | 'tomcat-x' | 'majors' | 'comma' | 'lines';
export const AXL_VERSION_WORDINGS: readonly AxlVersionWording[] = [
  'and',
  'tomcat-x',
  'majors',
  'comma',
  'lines',
];

function joinAnd(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** `12.0, 12.5, 14.0` -> `12.x, 14.0` (or `12.x, 14.x` with `all`): a major with several schemas is named once. */
function byMajor(versions: readonly string[], all = false): string[] {
  const out: string[] = [];
  for (const v of versions) {
    const major = v.split('.')[0] as string;
    const several = all || versions.filter((w) => w.split('.')[0] === major).length > 1;
    const label = several ? `${major}.x` : v;
    if (!out.includes(label)) out.push(label);
  }
  return out;
}

export function wrongVersionPage(versions: readonly string[], wording: AxlVersionWording): string {
  switch (wording) {
    case 'tomcat-x': {
      const text = `Incorrect axl version. Supported axl versions are ${joinAnd(byMajor(versions))}`;
      return `<!-- custom Cisco error page --><html>\n<body>\n<div id="content-header">HTTP Status 599 - ${text}</div>\n<p><b>Message:</b> ${text}</p>\n</body>\n</html>`;
    }
    case 'majors':
      return `<html><head><title>AXL Error</title></head><body>Incorrect AXL version. Supported axl versions are ${joinAnd(byMajor(versions, true))}</body></html>`;
    case 'comma':
      return `<html><head><title>AXL Error</title></head><body>Incorrect axl version. Supported axl versions are ${versions.join(',')}</body></html>`;
    case 'lines':
      return `<html><head><title>AXL Error</title></head><body><pre>Incorrect AXL version.\nSupported AXL versions are:\n${versions.join('\n')}\n</pre></body></html>`;
    default:
      return `<html><head><title>AXL Error</title></head><body>Incorrect axl version. Supported axl versions are ${joinAnd(versions)}</body></html>`;
  }
}

/** `15.0.1.11900(40)` -> `15.0.1.11900-40`: the CLI's form of a release. */
export function cliVersion(version: string): string {
  return version.replace(/\((\d+)\)$/, '-$1');
}

/** `14.0.1.13900-155` -> `14.0.1.13900(155)`: getCCMVersion's form. */
export function axlFullVersion(version: string): string {
  return version.replace(/-(\d+)$/, '($1)');
}
