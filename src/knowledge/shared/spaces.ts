import { spaces as storedSpaces } from '../../db/schema/values';
import { itemSlug } from './slug';
import { DOCUMENT_TEMPLATE_TYPES, KNOWLEDGE_TEMPLATE_TYPES, type TemplateType } from './item-types';

/** What differs between the two spaces that share the documents table: every `space === …` choice, once. */
export interface SpaceInfo {
  /** The list screen (also the base of its editor, delete and deleted-items pages). */
  path: string;
  /** The JSON API base (spec §7). */
  api: string;
  /** Knowledge items have kinds (type filter, Create New menu), views (grid, list, category) and a preview. */
  hasKinds: boolean;
  /** What a card's or row's title opens: a document its editor (spec §2), a knowledge item its read page. */
  listOpens: 'page' | 'editor';
  /** What the texts call one item. */
  noun: string;
  /** Template types offered in the editor. */
  templateTypes: readonly TemplateType[];
  /** The prefix of its audit actions (`knowledge.delete`) and the audit entity type. */
  audit: { action: string; entityType: string };
  page: { title: string; subtitle: string; deletedTitle: string; searchLabel: string };
  messages: { deleted: string; missing: string; saveFailed: string };
}

export const SPACES = {
  knowledge: {
    path: '/knowledge-base',
    api: '/api/knowledge-base',
    hasKinds: true,
    listOpens: 'page',
    noun: 'knowledge base item',
    templateTypes: KNOWLEDGE_TEMPLATE_TYPES,
    audit: { action: 'knowledge', entityType: 'knowledge_item' },
    page: {
      title: 'Knowledge Base',
      subtitle: 'Manage your knowledge base, work instructions, and templates',
      deletedTitle: 'Deleted knowledge items',
      searchLabel: 'Search knowledge base',
    },
    messages: {
      deleted: 'Knowledge base item deleted successfully.',
      missing: 'That knowledge base item does not exist or was deleted.',
      saveFailed: 'Failed to save knowledge base document. Please try again.',
    },
  },
  documents: {
    path: '/documents',
    api: '/api/documents',
    hasKinds: false,
    listOpens: 'editor',
    noun: 'document',
    templateTypes: DOCUMENT_TEMPLATE_TYPES,
    audit: { action: 'document', entityType: 'document' },
    page: {
      title: 'Documents',
      subtitle: 'Manage your documentation and templates',
      deletedTitle: 'Deleted documents',
      searchLabel: 'Search documents',
    },
    messages: {
      deleted: 'Document deleted successfully.',
      missing: 'That document does not exist or was deleted.',
      saveFailed: 'Failed to save document. Please try again.',
    },
  },
} as const satisfies Record<string, SpaceInfo>;

export type Space = keyof typeof SPACES;
export const spaces = storedSpaces satisfies readonly Space[];

export type ApiBase = (typeof SPACES)[Space]['api'];

/** The space whose API base this is. */
export const spaceOfApi = (base: ApiBase): Space => (base === SPACES.knowledge.api ? 'knowledge' : 'documents');

/**
 * An item's own read page, its one lasting address (search results, the dashboard, e-mails, reports and Ops AI link
 * here): `/knowledge-base/{id}/{slug}`, or `/{id}` alone when the title is unknown or leaves no slug.
 */
export function itemHref(space: Space, id: string, title?: string | null): string {
  const slug = title ? itemSlug(title) : '';
  return `${SPACES[space].path}/${id}${slug ? `/${slug}` : ''}`;
}

/** Where a list's card or row title leads (SpaceInfo.listOpens). */
export function listItemHref(space: Space, item: { id: string; title: string }): string {
  return SPACES[space].listOpens === 'page'
    ? itemHref(space, item.id, item.title)
    : `${SPACES[space].path}/${item.id}/edit`;
}

/** A space as a stored or joined row names it (`documents.space` read as text elsewhere). */
export const spaceOf = (value: string): Space => (value === 'documents' ? 'documents' : 'knowledge');

/** The space whose list screen is at this path. */
export const spaceOfPath = (path: string): Space => (path === SPACES.knowledge.path ? 'knowledge' : 'documents');
