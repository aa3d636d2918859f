// The versions a node lists in its HTTP 599 ("Incorrect axl version"), however it words them: releases
// differ ("Supported axl versions are 12.0, 12.5, 14.0 and 15.0", the Tomcat error page with "12.x, 14.0
// and 15.0", a bare comma list, one version a line, a major without minor). What is read is only a list
// of version labels; which one to use is decided against what this side can speak.
import { compareVersions } from './schema-cache.ts';

/** The sentence that introduces the list, in the wordings seen or plausible. */
const INTRO =
  /supported\s+(?:axl\s+)?(?:schema\s+)?versions?(?:\s+(?:are|is|include))?\s*:?|supports?\s+(?:axl\s+)?(?:schema\s+)?(?:versions?\s*:?)?/i;
/** A label: `15.0`, `12.x`, `15`. Two digits at most, so a status code or a build number is not one. */
const LABEL = /(?<![\d.])(\d{1,2})(?:\.(\d{1,2}|x))?(?![\d.]*\d)/gi;

function plainText(body: string): string {
  return body
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ');
}

/** Each list the page carries (a Tomcat page repeats it), merged: `['12.x', '14.0', '15.0']`, oldest first. */
export function parseSupportedVersions(body: string): string[] {
  const text = plainText(body.slice(0, 64 * 1024));
  const found = new Set<string>();
  for (let rest = text, m = INTRO.exec(rest); m; m = INTRO.exec(rest)) {
    rest = rest.slice(m.index + m[0].length);
    // The list runs while it is labels, separators and "and"; a word ends it.
    const list = /^[\s\d.,;/xX]*(?:(?:and|or)\b[\s\d.,;/xX]*)*/i.exec(rest)?.[0] ?? '';
    for (const l of list.matchAll(LABEL)) {
      const major = String(Number(l[1]));
      found.add(l[2] === undefined ? major : `${major}.${l[2].toLowerCase()}`);
    }
  }
  return [...found].sort((a, b) => compareVersions(a.replace(/x$/i, '99'), b.replace(/x$/i, '99')));
}

/** Whether a node listing `label` serves schema `version` (`12.x` and `12` cover every 12 schema). */
export function labelCovers(label: string, version: string): boolean {
  const [major, minor] = label.split('.');
  const [vMajor] = version.split('.');
  return minor === undefined || minor === 'x' ? major === vMajor : label === version;
}

/**
 * The versions worth trying, best first: those of `candidates` the node lists, not above `wanted`.
 * An empty list from the node (an unreadable page) leaves every candidate, still not above `wanted`.
 */
export function versionsToTry(
  supported: readonly string[],
  candidates: readonly string[],
  wanted?: string,
): string[] {
  return candidates
    .filter((v) => wanted === undefined || compareVersions(v, wanted) <= 0)
    .filter((v) => supported.some((label) => labelCovers(label, v)))
    .sort(compareVersions)
    .reverse();
}

/** Concrete schema versions a list names, newest first: `12.x` stands for 12.5 then 12.0. */
export function concreteVersions(supported: readonly string[]): string[] {
  const out = new Set<string>();
  for (const label of supported) {
    const [major, minor] = label.split('.');
    if (minor === undefined || minor === 'x') {
      out.add(`${major}.5`);
      out.add(`${major}.0`);
    } else out.add(label);
  }
  return [...out].sort(compareVersions).reverse();
}
