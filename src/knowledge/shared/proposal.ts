import type { Fields } from './editor';
import { contentOf } from './form-markdown';

/**
 * An AI proposal in the editor: the fields it would change, shown beside the current text until the author accepts
 * or discards it. Accepting applies only these fields to the fields as they are then.
 */
export type ProposedField = 'title' | 'excerpt' | 'purpose' | 'tags' | 'content';

export interface ProposedChange {
  field: ProposedField;
  /** The current and the proposed text (tags as "a, b"). */
  before: string;
  after: string;
  /** The proposed tags (field "tags"). */
  tags?: string[];
}

const joinTags = (tags: string[]) => tags.join(', ');

/** The field's current text (tags as "a, b"; purpose from the how-to form). */
function textOf(f: Fields, field: ProposedField): string {
  if (field === 'tags') return joinTags(f.tags);
  if (field === 'purpose') return f.form?.kind === 'howto' ? f.form.purpose : '';
  return f[field];
}

/** A change to one field, or null when the proposed text is what the field already holds. */
export function proposedChange(f: Fields, field: ProposedField, after: string): ProposedChange | null {
  const before = textOf(f, field);
  return after.trim() && after !== before ? { field, before, after } : null;
}

function tagsChange(f: Fields, tags: string[]): ProposedChange | null {
  const change = proposedChange(f, 'tags', joinTags(tags));
  return change && { ...change, tags };
}

export interface EnhancedContent {
  improvedContent: string;
  suggestedTitle?: string;
  extractedTags?: string[];
  summary?: string;
}

/**
 * What "Enhance with AI" proposes: a title and excerpt only where they are empty, the tags it found added to the
 * author's, and the improved content (not for forms, whose content is written from the form).
 */
export function enhancementChanges(f: Fields, result: EnhancedContent): ProposedChange[] {
  const tags = [...new Set([...f.tags, ...(result.extractedTags ?? [])])];
  return [
    f.title.trim() ? null : proposedChange(f, 'title', result.suggestedTitle ?? ''),
    f.excerpt.trim() ? null : proposedChange(f, 'excerpt', result.summary ?? ''),
    tagsChange(f, tags),
    f.form ? null : proposedChange(f, 'content', result.improvedContent ?? ''),
  ].filter((c): c is ProposedChange => c !== null);
}

/** The fields with one change applied (a form's content is rewritten from the form, as when typing). */
function applyChange(f: Fields, { field, after, tags }: ProposedChange): Fields {
  switch (field) {
    case 'title':
      return { ...f, title: after, content: f.form ? contentOf(f.form, after) : f.content };
    case 'purpose': {
      if (f.form?.kind !== 'howto') return f;
      const form = { ...f.form, purpose: after };
      return { ...f, form, content: contentOf(form, f.title) };
    }
    case 'tags':
      return { ...f, tags: tags ?? [] };
    default:
      return { ...f, [field]: after };
  }
}

/** The fields with every change of a proposal applied. */
export const applyChanges = (f: Fields, changes: ProposedChange[]): Fields => changes.reduce(applyChange, f);
