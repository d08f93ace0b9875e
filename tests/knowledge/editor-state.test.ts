import { describe, expect, it } from 'vitest';
import { needsSource } from '../../islands/_lib/knowledge/editor/ContentEditor';
import { chooseTemplateType, editorHeading, initialFields, payloadOf } from '../../src/knowledge/shared';
import { addTag } from '../../islands/_lib/knowledge/editor/TagsInput';
import { documentInput } from '../../src/knowledge/schemas';

describe('editor state', () => {
  it('new items get the spec default category, type and starting content per kind', () => {
    expect(initialFields(null, 'work-instruction')).toMatchObject({
      category: 'sop',
      templateType: 'work_instruction',
      form: null,
    });
    expect(initialFields(null, 'work-instruction').content).toContain('## Procedure');
    expect(initialFields(null, 'how-to-guide')).toMatchObject({
      category: 'how-to',
      templateType: 'how_to_guide',
      form: { kind: 'howto' },
    });
    expect(initialFields(null, 'build-document')).toMatchObject({
      category: 'build',
      templateType: 'build_document',
      form: { kind: 'build' },
    });
    expect(initialFields(null, 'knowledge-base')).toMatchObject({ category: '', templateType: null, content: '' });
    expect(initialFields(null, 'document')).toMatchObject({
      category: '',
      templateType: null,
      content: '',
      isTemplate: false,
    });
  });

  it('choosing a template type on a new, empty document fills a skeleton and marks it a template', () => {
    const empty = initialFields(null, 'document');
    const chosen = chooseTemplateType(empty, 'troubleshooting', true, true);
    expect(chosen).toMatchObject({ isTemplate: true, templateType: 'troubleshooting' });
    expect(chosen.content).toContain('# Troubleshooting');
    expect(chooseTemplateType(empty, 'how_to_guide', true, true).form?.kind).toBe('howto');
    // Not on an existing item, nor over typed content.
    expect(chooseTemplateType({ ...empty, content: 'mine' }, 'maintenance', true, false).content).toBe('mine');
    expect(chooseTemplateType(empty, 'maintenance', false, true).content).toBe('');
  });

  it('builds a payload the API schema accepts, with the version the edit is based on', () => {
    const f = { ...initialFields(null, 'how-to-guide'), title: '  Reset  ', tags: ['a'] };
    const body = payloadOf(f, 3);
    expect(body).toMatchObject({
      title: 'Reset',
      category: 'how-to',
      excerpt: null,
      version: 3,
      formModel: { kind: 'howto' },
    });
    expect(documentInput.safeParse(body).success).toBe(true);
    expect('version' in payloadOf(f, null)).toBe(false);
  });

  it('tags: trimmed, no duplicates, no empties', () => {
    expect(addTag([], '  vpn ')).toEqual(['vpn']);
    expect(addTag(['vpn'], 'vpn')).toEqual(['vpn']);
    expect(addTag(['vpn'], '   ')).toEqual(['vpn']);
  });

  it('headings follow the spec titles', () => {
    expect(editorHeading('document', true).title).toBe('Create Document');
    expect(editorHeading('document', false).title).toBe('Edit Document');
    expect(editorHeading('work-instruction', true).title).toBe('Create Work Instruction');
    expect(editorHeading('build-document', false).title).toBe('Edit Build Document');
    expect(editorHeading('how-to-guide', true).subtitle).toBeTruthy();
  });

  it('content with HTML or sized images is edited as markdown, not in the rich editor', () => {
    expect(needsSource('# Hi\n\n- a')).toBe(false);
    expect(needsSource('<!-- width=300px height=auto -->\n![a](/objects/x)')).toBe(true);
    expect(needsSource('a <b>bold</b>')).toBe(true);
    expect(needsSource('a < b')).toBe(false);
    expect(needsSource('| a | b |\n| --- | --- |')).toBe(true);
    expect(needsSource('```bash\nls\n```')).toBe(false);
  });
});
