// Redirect URIs for the tests of their validation (unit and over HTTPS): a table of malformed ones, each
// with why it is refused, unusual well-formed ones, and an arbitrary that mixes the two.
import fc from 'fast-check';
import { MAX_REDIRECT_URI_LENGTH } from '../../kernel/clients/redirect-uri.ts';

/** Malformed redirect URIs, each with the reason it must be refused for. */
export const MALFORMED_REDIRECT_URIS: [string, RegExp][] = [
  ['http://127.0.0.1:0/callback', /port/],
  ['http://127.0.0.1:65536/callback', /port/],
  ['http://127.0.0.1:99999/callback', /port/],
  ['http://127.0.0.1:123456/callback', /port/],
  ['http://127.0.0.1:-1/callback', /port/],
  ['http://127.0.0.1:80a/callback', /port/],
  ['http://127.0.0.1:/callback', /port/],
  ['http://127.0.0.1:08080/callback', /port/],
  ['http://127.0.0.1:8080:80/callback', /port/],
  ['https://agent.example.com:0/cb', /port/],
  ['http://[::1%25eth0]:8080/callback', /zone/],
  ['http://[fe80::1%25eth0]/callback', /zone/],
  ['http://[fe80::1%eth0]/callback', /percent-encoding|zone/],
  ['http://[::1/callback', /IPv6|host/],
  ['http://[zz]/callback', /IPv6/],
  ['http://127.0.0.1:8080/callback%zz', /percent-encoding/],
  ['http://127.0.0.1:8080/callback?x=%', /percent-encoding/],
  ['http://127.0.0.1/callback%4', /percent-encoding/],
  ['http://127%2e0.0.1/callback', /host/],
  ['http://user@127.0.0.1/callback', /user information/],
  ['http://u:p@127.0.0.1:8080/callback', /user information/],
  ['http://127.0.0.1/callback#frag', /fragment/],
  ['http://127.0.0.1/callback#', /fragment/],
  [`http://127.0.0.1/${'a'.repeat(MAX_REDIRECT_URI_LENGTH)}`, /longer than/],
  ['http://127.0.0.1/call back', /space/],
  ['http://127.0.0.1/callback\u0000', /control/],
  ['http://127.0.0.1/callback\r\nSet-Cookie: x=1', /control/],
  ['http://127.0.0.1/caf\u00e9', /ASCII/],
  ['http://127.0.0.1/\ud800', /ASCII/],
  ['http://127.0.0.1\\@evil.example/callback', /backslash/],
  ['', /empty/],
  ['callback', /absolute/],
  ['//127.0.0.1/callback', /absolute/],
  ['http:/127.0.0.1/callback', /loopback/],
  ['http://evil.example/callback', /loopback/],
  ['http://127.0.0.1.evil.example/callback', /loopback/],
  ['https://', /host/],
  ['https:/nohost', /host/],
  ['javascript:alert(1)', /scheme/],
];

/** Unusual but well-formed redirect URIs: accepted, and a redirect to them can be built. */
export const WELL_FORMED_REDIRECT_URIS = [
  'http://127.0.0.1:1/callback',
  'http://127.0.0.1:65535/callback',
  'http://[::1]:8080/callback',
  'http://localhost/callback',
  'https://agent.example.com/cb?x=%41&y=',
  'com.example.app:/cb',
];

/**
 * URI-shaped strings near the loopback redirect a client registers: every host form, ports in and out
 * of range or not numbers, paths and queries with stray percent signs, userinfo, fragments.
 */
export function redirectUriArbitrary(): fc.Arbitrary<string> {
  // Weighted toward what the registered loopback redirect would match, so most cases get past the
  // registration check to the login and the redirect, where a bad URI does its damage.
  const often = <T>(usual: T, ...others: T[]): fc.Arbitrary<T> =>
    fc.oneof({ arbitrary: fc.constant(usual), weight: 3 * others.length }, fc.constantFrom(...others));
  const scheme = often('http', 'https', 'HTTP', 'com.example.app', 'javascript', '');
  const separator = often('://', ':/', ':', '//');
  const host = often(
    '127.0.0.1',
    '[::1]',
    'localhost',
    '[::1%25lo]',
    '[fe80::1%eth0]',
    '127.0.0.1.evil.example',
    'user@127.0.0.1',
    '',
    '[',
    '127.1',
  );
  const port = fc.oneof(
    fc.constant(''),
    fc.integer({ min: -5, max: 200_000 }).map((n) => `:${n}`),
    fc.integer({ min: 65_530, max: 100_000 }).map((n) => `:${n}`),
    fc.constantFrom(':', ':0', ':65535', ':65536', ':0080', ':8080:1', ':1e3', ':\u0661'),
    fc.string({ maxLength: 6 }).map((s) => `:${s}`),
  );
  const pathChar = fc.constantFrom(
    'a',
    '/',
    '%',
    '%2',
    '%41',
    '%zz',
    '?',
    '=',
    '&',
    '#',
    ' ',
    '\\',
    '\u0000',
    '\ud800',
    'é',
  );
  const path = fc.oneof(
    { arbitrary: fc.constant('/callback'), weight: 4 },
    fc.array(pathChar, { maxLength: 12 }).map((cs) => `/callback${cs.join('')}`),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc
      .integer({ min: MAX_REDIRECT_URI_LENGTH - 40, max: MAX_REDIRECT_URI_LENGTH + 40 })
      .map((n) => `/${'a'.repeat(n)}`),
  );
  return fc
    .tuple(scheme, separator, host, port, path)
    .map(([s, sep, h, p, rest]) => `${s}${sep}${h}${p}${rest}`);
}
