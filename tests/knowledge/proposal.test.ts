import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  emptyForm,
  enhancementChanges,
  howToMarkdown,
  initialFields,
  previewBody,
  proposedChange,
  type Fields,
  type HowToForm,
} from '../../src/knowledge/shared';

const article = (patch: Partial<Fields> = {}): Fields => ({
  ...initialFields(null, 'document'),
  title: 'Reset VPN',
  content: 'old text',
  ...patch,
});

describe('AI proposals in the editor', () => {
  it('proposes only what differs, and applying a proposal leaves everything else as it is now', () => {
    const f = article({ tags: ['vpn'] });
    expect(proposedChange(f, 'title', 'Reset VPN')).toBeNull();
    expect(proposedChange(f, 'title', '  ')).toBeNull();
    const changes = enhancementChanges(f, {
      improvedContent: 'new text',
      suggestedTitle: 'Ignored: the title is set',
      summary: 'How to reset',
      extractedTags: ['vpn', 'network'],
    });
    expect(changes).toEqual([
      { field: 'excerpt', before: '', after: 'How to reset' },
      { field: 'tags', before: 'vpn', after: 'vpn, network', tags: ['vpn', 'network'] },
      { field: 'content', before: 'old text', after: 'new text' },
    ]);
    // The author kept typing while the proposal was shown: Accept keeps that.
    const now = { ...f, category: 'Networking' };
    expect(applyChanges(now, changes)).toEqual({
      ...now,
      excerpt: 'How to reset',
      tags: ['vpn', 'network'],
      content: 'new text',
    });
  });

  it("a how-to's purpose and title are applied through its form, whose markdown is rewritten", () => {
    const form = { ...(emptyForm('howto') as HowToForm), purpose: 'reset mfa' };
    const f = article({ form, content: howToMarkdown(form, 'Reset VPN') });
    expect(enhancementChanges(f, { improvedContent: 'ignored for forms' })).toEqual([]);
    const next = applyChanges(f, [
      proposedChange(f, 'purpose', 'Reset a user MFA method.')!,
      proposedChange(f, 'title', 'Reset MFA')!,
    ]);
    expect(next.form).toMatchObject({ purpose: 'Reset a user MFA method.' });
    expect(next.content).toBe(howToMarkdown(next.form as HowToForm, 'Reset MFA'));
  });
});

describe('previewBody', () => {
  it('drops a first "# Title" that repeats the title, and nothing else', () => {
    expect(previewBody('# Reset MFA\n\n## Purpose\n\nx', 'Reset MFA')).toBe('## Purpose\n\nx');
    expect(previewBody('\n#  Reset MFA #\r\ntext', ' Reset MFA')).toBe('text');
    expect(previewBody('# Another heading\n\ntext', 'Reset MFA')).toBe('# Another heading\n\ntext');
    expect(previewBody('## Reset MFA\n\ntext', 'Reset MFA')).toBe('## Reset MFA\n\ntext');
    expect(previewBody('# How-To Guide\n\ntext', '')).toBe('# How-To Guide\n\ntext');
  });
});
