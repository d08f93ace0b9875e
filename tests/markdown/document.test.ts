import { describe, expect, it } from 'vitest';
import { RESERVED_IDS, renderDocument } from '../../src/markdown/document';
import { UNSAFE_HTML, XSS_CASES } from './xss-cases';

const idsOf = (html: string) => [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);

describe('renderDocument', () => {
  it('gives a heading a GitHub-style id and a copy-link anchor', () => {
    const { html } = renderDocument('## Step 4: Restart nginx');
    expect(html.trim()).toBe(
      '<h2 id="step-4-restart-nginx">Step 4: Restart nginx <a class="heading-anchor" href="#step-4-restart-nginx" aria-label="Link to this section: Step 4: Restart nginx">#</a></h2>',
    );
  });

  it('numbers repeated headings and never takes an id of the app shell', () => {
    const { headings } = renderDocument('## Notes\n\n## Notes\n\n### Notes\n\n# Main\n\n## Sidebar\n\n## Toasts');
    expect(headings.map((h) => h.id)).toEqual(['notes', 'notes-1', 'notes-2', 'main-1', 'sidebar-1', 'toasts-1']);
    expect(RESERVED_IDS).toEqual(
      expect.arrayContaining(['main', 'sidebar', 'toasts', 'global-search-input', 'global-search-results']),
    );
    // A heading "Servers panel" must not take the read page's live panel's id (its refresh finds the panel by id).
    expect(renderDocument('## Servers panel').headings[0].id).toBe('servers-panel-1');
    const all = renderDocument(RESERVED_IDS.map((id) => `## ${id}`).join('\n\n')).headings.map((h) => h.id);
    expect(all.filter((id) => RESERVED_IDS.includes(id))).toEqual([]);
  });

  it('lists the headings with their level and plain text (no markup, no anchor)', () => {
    const { headings } = renderDocument(
      '# Runbook\n\nIntro\n\n## Restart `nginx` *now*\n\n### Check & verify <b>logs</b>\n\n###### Deep',
    );
    expect(headings).toEqual([
      { id: 'runbook', text: 'Runbook', level: 1 },
      { id: 'restart-nginx-now', text: 'Restart nginx now', level: 2 },
      { id: 'check--verify-logs', text: 'Check & verify logs', level: 3 },
      { id: 'deep', text: 'Deep', level: 6 },
    ]);
  });

  it('drops ids the author wrote in HTML; headings written in HTML get ours', () => {
    const { html, headings } = renderDocument(
      '<h2 id="main">Main</h2>\n\n<div id="main">x</div>\n\n<p id="sidebar">y <a id="toasts" name="toasts">z</a></p>',
    );
    expect(idsOf(html)).toEqual(['main-1']);
    expect(headings).toEqual([{ id: 'main-1', text: 'Main', level: 2 }]);
  });

  it('gives a heading without letters an id all the same', () => {
    const { headings } = renderDocument('## !!!\n\n## ???');
    expect(headings.map((h) => h.id)).toEqual(['section', 'section-1']);
  });

  it('escapes heading text in the anchor label', () => {
    const { html } = renderDocument('## a" onmouseover="alert(1) <x>');
    expect(html).toContain('aria-label="Link to this section: a&quot; onmouseover=&quot;alert(1)"');
    expect(html).not.toMatch(/<[^>]*\sonmouseover="/);
  });

  it('wraps each table in a focusable scroll region', () => {
    const { html } = renderDocument('| a | b |\n|---|---|\n| 1 | 2 |\n\n<table><tr><td>raw</td></tr></table>');
    const open = '<div class="table-scroll" role="region" tabindex="0" aria-label="Table"><table>';
    expect(html.split(open)).toHaveLength(3);
    expect(html.split('</table></div>')).toHaveLength(3);
  });

  it('wraps each code block with a copy button that stays hidden until the script wires it', () => {
    const { html } = renderDocument('```sh\nsudo systemctl restart nginx\n```\n\n    indented');
    expect(html).toContain(
      '<div class="code-block"><pre><code class="language-sh">sudo systemctl restart nginx\n</code></pre><button type="button" class="btn btn--secondary btn--sm code-block__copy" data-copy-code hidden>Copy</button></div>',
    );
    expect(html.match(/data-copy-code hidden/g)).toHaveLength(2);
  });

  it('does not let the author forge the wrappers: the classes and the button are dropped', () => {
    const { html } = renderDocument('<div class="code-block"><button data-copy-code>Copy</button></div>');
    expect(html).not.toMatch(/code-block|<button|data-copy-code/);
  });

  it('loads images lazily and asynchronously, sized only from the size comment', () => {
    const { html } = renderDocument(
      '<!-- width=300px height=200px -->\n![Step 1](/objects/a)\n\n![Step 2](/objects/b)',
    );
    expect(html).toContain(
      '<img decoding="async" src="/objects/a" alt="Step 1" width="300" height="200" loading="lazy"',
    );
    expect(html).toContain('<img decoding="async" src="/objects/b" alt="Step 2" loading="lazy" />');
  });

  it.each(XSS_CASES)('makes %s harmless', (_name, md) => {
    expect(renderDocument(md).html).not.toMatch(UNSAFE_HTML);
  });

  it('renders nothing for no markdown', () => {
    expect(renderDocument(null)).toEqual({ html: '', headings: [] });
    expect(renderDocument('')).toEqual({ html: '', headings: [] });
  });
});
