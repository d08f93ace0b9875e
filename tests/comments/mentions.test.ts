import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/comments/render';
import { mentionedEmails } from '../../src/comments/shared';

/** How a mention is written and shown: `@` + an account's e-mail address, rendered as the person's name. */
describe('mentions', () => {
  it('finds each address once, lower-cased, without trailing punctuation or a word glued before the @', () => {
    expect(
      mentionedEmails('Hi @Ada@Example.com, and (@bob.b+ops@mail.example.org). Again @ada@example.com! me@x@y.com'),
    ).toEqual(['ada@example.com', 'bob.b+ops@mail.example.org']);
    expect(mentionedEmails('mail ada@example.com directly, @ alone, @nobody')).toEqual([]);
  });

  it('shows a known account as its name in a span, leaves unknown addresses as written, and escapes names', () => {
    const names = new Map([
      ['ada@example.com', 'Ada <Lovelace>'],
      ['bob@example.com', 'Bob'],
    ]);
    const html = renderComment('**Ping** @ADA@example.com and @bob@example.com; not @eve@example.com', names);
    expect(html).toContain('<strong>Ping</strong>');
    expect(html).toContain('<span class="mention" title="ADA@example.com">@Ada &lt;Lovelace&gt;</span>');
    expect(html).toContain('<span class="mention" title="bob@example.com">@Bob</span>');
    expect(html).toContain('eve@example.com');
    expect(html).not.toContain('OPSHUBMENTION');
  });

  it('sanitises the rest like item content', () => {
    const html = renderComment(
      '<img src=x onerror=alert(1)> @ada@example.com <script>x</script>',
      new Map([['ada@example.com', 'Ada']]),
    );
    expect(html).not.toMatch(/onerror|<script/);
    expect(html).toContain('@Ada</span>');
  });
});
