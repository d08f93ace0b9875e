import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../islands/_lib/chat/markdown';
import { isInAppLink, safeHref } from '../../islands/_lib/chat/safe-url';

const html = (text: string) => renderToString(<Markdown text={text} onCopyCode={() => {}} />);

describe('assistant markdown', () => {
  it('allows only http, https, irc, ircs, mailto, xmpp and relative links', () => {
    for (const ok of [
      'https://a.example',
      'http://a',
      'irc://x',
      'ircs://x',
      'mailto:a@b.c',
      'xmpp:a@b.c',
      '/infrastructure?server=1',
      'docs/x',
      '#top',
      '/a:b',
    ])
      expect(safeHref(ok)).toBe(ok);
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      ' javascript:x',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
    ])
      expect(safeHref(bad)).toBeUndefined();
    expect(isInAppLink('/knowledge-base?doc=1')).toBe(true);
    expect(isInAppLink('//evil.example')).toBe(false);
  });

  it('renders in-app links in place, others in a new tab, unsafe ones without href', () => {
    const out = html('[a](/infrastructure?server=1) [b](https://x.example) [c](javascript:alert(1))');
    expect(out).toContain('<a href="/infrastructure?server=1">a</a>');
    expect(out).toContain('<a href="https://x.example" target="_blank" rel="noopener noreferrer">b</a>');
    expect(out).toContain('<a>c</a>');
  });

  it('renders tables, lists, code blocks with a copy button, and raw HTML as text', () => {
    const out = html(
      '| A | B |\n|---|---|\n| 1 | 2 |\n\n3. three\n4. four\n\n```bash\nls <dir>\n```\n\n<img src=x onerror=alert(1)>',
    );
    expect(out).toContain(
      '<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
    );
    expect(out).toContain('<ol start="3"><li>three</li><li>four</li></ol>');
    expect(out).toContain('<code class="language-bash">ls &lt;dir&gt;</code>');
    expect(out).toContain('aria-label="Copy code"');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
