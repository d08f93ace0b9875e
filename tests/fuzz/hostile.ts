/** Seeded randomness and the hostile values the fuzz puts into near-valid requests. */

/** mulberry32: a small, fast, seeded PRNG (same seed → same cases on every run). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** An object with an own "__proto__" key, as JSON.parse makes it (an object literal would set the prototype). */
export const protoKeyed = (value: unknown) =>
  JSON.parse(`{"__proto__": ${JSON.stringify(value)}}`) as Record<string, unknown>;

/** Arrays nested `depth` deep, built without recursion. */
export function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

const MB = 1024 * 1024;

/** Text a field may receive from a broken or hostile client. */
export const hostileStrings: readonly [string, string][] = [
  ['NUL', '\u0000'],
  ['NUL inside text', 'before\u0000after'],
  ['many NULs', '\u0000'.repeat(50_000)],
  ['C0 controls', '\u0001\u0002\u0007\b\u000b\f\u000e\u001b\u001f\u007f'],
  ['C1 and separators', 'a\u0085b\u2028c\u2029d\ufeff\ufffe\uffff'],
  ['lone high surrogate', '\ud800'],
  ['lone low surrogate', 'x\udc00y'],
  ['reversed surrogate pair', '\udc00\ud800'],
  ['1 MB string', 'a'.repeat(MB)],
  ['1 MB of emoji', '\u{1F4A5}'.repeat(MB / 4)],
  ['empty', ''],
  ['blank', ' \t\r\n '],
  ['escaped-looking NUL', '%00\\u0000\\x00'],
  ['markup', '<img src=x onerror=alert(1)><script>alert(1)</script>'],
  ['SQL', "' OR 1=1; drop table users; --"],
  ['path', '../../../../etc/passwd'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${…} is the hostile input itself
  ['template', '{{7*7}}${7*7}#{7*7}'],
  ['number-like', '1e309'],
  ['prototype word', '__proto__'],
  ['URL', 'javascript:alert(1)'],
];

/** Values of the wrong type (and shapes built to trip recursive code or prototype lookups). */
export const hostileValues: readonly [string, unknown][] = [
  ['null', null],
  ['true', true],
  ['zero', 0],
  ['negative', -1],
  ['fraction', 1.5],
  ['huge number', 1e308],
  ['unsafe integer', Number.MAX_SAFE_INTEGER + 2],
  ['empty array', []],
  ['array of NUL', ['\u0000']],
  ['array of lone surrogate', ['\ud800']],
  ['empty object', {}],
  ['object with NUL', { a: '\u0000' }],
  ['__proto__ object', protoKeyed({ role: 'admin', isAdmin: true, polluted: true })],
  ['constructor.prototype object', { constructor: { prototype: { polluted: true } } }],
  ['nested 100 deep', nested(100)],
];

/** Keys added to a body: prototype names and keys that are themselves hostile. */
export const hostileKeys: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  '\ud800',
  'k'.repeat(10_000),
];

/** Path parameters: encoded NUL, traversal, overlong, wrong shape. */
export const hostileParams: readonly string[] = [
  '%00',
  'a%00b',
  '..%2F..%2Fetc',
  'x'.repeat(5000),
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'constructor',
  '%ED%A0%80',
  '%FF%FE',
];

/** Raw bodies: broken JSON, deep nesting (a stack breaker for recursive code), a lone NUL byte. */
export const hostileRawBodies: readonly [string, string][] = [
  ['truncated JSON', '{"title": "a'],
  ['nested 100000 deep', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
  ['NUL byte in JSON', '{"a":"\u0000"}'],
  ['raw __proto__', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'],
  ['JSON null', 'null'],
  ['JSON string', '"\\u0000"'],
  ['JSON array', '[{"a":"\\ud800"}]'],
  ['not JSON', 'hello=world&x=\u0000'],
];
