/** Markdown that tries to run script or leak out of the page, shared by every renderer's tests. */
export const XSS_CASES: [name: string, markdown: string][] = [
  ['script tag', '<script>alert(1)</script>'],
  ['event handler', '<img src="/x.png" onerror="alert(1)">'],
  ['javascript: link', '[click](javascript:alert(1))'],
  ['mixed-case javascript: link', '<a href="JaVaScRiPt:alert(1)">x</a>'],
  ['entity-encoded javascript: link', '<a href="&#106;avascript:alert(1)">x</a>'],
  ['data: link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['iframe', '<iframe src="https://evil.example"></iframe>'],
  ['svg onload', '<svg onload="alert(1)"></svg>'],
  ['style/expression', '<p style="background:url(javascript:alert(1))">x</p>'],
  ['object/embed', '<object data="x.swf"></object><embed src="x.swf">'],
  ['form', '<form action="https://evil.example"><input name="p"></form>'],
  ['svg data image', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)'],
];

/** What none of them may leave in the HTML. */
export const UNSAFE_HTML =
  /<script|onerror|onload|javascript:|<iframe|<object|<embed|<form|style=|data:text|data:image\/svg/i;
