/**
 * The kinds of item, once. Each kind is written three ways outside this file and they must stay as they are:
 * the URL and filter value (`how-to-guide`), the stored and API `templateType` (`how_to_guide`) and the stored
 * form model's `kind` (`howto`). This table is the only place that relates them.
 */

import { templateTypes } from '../../db/schema/values';

export { templateTypes };
export type TemplateType = (typeof templateTypes)[number];

/** Template Type select: spec §3 values with their labels. */
export const TEMPLATE_TYPE_LABELS: Record<TemplateType, string> = {
  server_setup: 'Server Setup',
  network_config: 'Network Configuration',
  security_audit: 'Security Audit',
  maintenance: 'Maintenance',
  troubleshooting: 'Troubleshooting',
  work_instruction: 'Work Instruction (SOP)',
  how_to_guide: 'How-To Guide',
  general: 'General',
  build_document: 'Build Document',
};

/** Template types a document offers (spec: the first seven); knowledge items offer all. */
export const DOCUMENT_TEMPLATE_TYPES: readonly TemplateType[] = templateTypes.slice(0, 7);
export const KNOWLEDGE_TEMPLATE_TYPES: readonly TemplateType[] = templateTypes;

/** The form a kind is edited with (its markdown is generated from it), as the stored formModel.kind. */
export type FormKind = 'howto' | 'build';

export interface ItemType {
  label: string;
  /** The type filter's option text (plural). */
  filterLabel: string;
  /** The templateType an item of this kind is stored with (null: none, or one of the plain types). */
  templateType: TemplateType | null;
  form: FormKind | null;
  icon: string;
  /** Spec §3: default category on creation. */
  category: string;
  /** Editor subtitles: creating, editing. */
  subtitles: [create: string, edit: string];
}

/** The four kinds of knowledge item (spec: Knowledge Base, Work Instructions, How-To Guides, Build Documents). */
export const ITEM_TYPES = {
  'knowledge-base': {
    label: 'Knowledge Base',
    filterLabel: 'Knowledge Base',
    templateType: null,
    form: null,
    icon: 'book',
    category: '',
    subtitles: ['Write a new knowledge base article', 'Update this knowledge base article'],
  },
  'work-instruction': {
    label: 'Work Instruction',
    filterLabel: 'Work Instructions',
    templateType: 'work_instruction',
    form: null,
    icon: 'clipboard',
    category: 'sop',
    subtitles: ['Write a standard operating procedure, step by step', 'Update this standard operating procedure'],
  },
  'how-to-guide': {
    label: 'How-To Guide',
    filterLabel: 'How-To Guides',
    templateType: 'how_to_guide',
    form: 'howto',
    icon: 'wrench',
    category: 'how-to',
    subtitles: ['Write a step-by-step guide with screenshots', 'Update this how-to guide'],
  },
  'build-document': {
    label: 'Build Document',
    filterLabel: 'Build Documents',
    templateType: 'build_document',
    form: 'build',
    icon: 'server',
    category: 'build',
    subtitles: ['Record how a server is built, from prerequisites to sign-off', 'Update this server build document'],
  },
} as const satisfies Record<string, ItemType>;

export type KbType = keyof typeof ITEM_TYPES;
/** The type filter's values, in the menu's order. */
export const kbTypes = Object.keys(ITEM_TYPES) as KbType[];

/** True when a string (a query parameter) names a kind. */
export const isKbType = (t: string | null | undefined): t is KbType => !!t && Object.hasOwn(ITEM_TYPES, t);

/** The templateTypes that make an item one of the special kinds (every other one is a plain knowledge item). */
export const specialTemplateTypes = kbTypes.flatMap((k) => ITEM_TYPES[k].templateType ?? []);

/** The kind of a knowledge item, from its templateType. */
export function kbTypeOf(templateType: string | null | undefined): KbType {
  return kbTypes.find((k) => templateType && ITEM_TYPES[k].templateType === templateType) ?? 'knowledge-base';
}

/** The form a templateType is edited with, or null. */
export const formKindOf = (templateType: TemplateType | null | undefined): FormKind | null =>
  templateType ? ITEM_TYPES[kbTypeOf(templateType)].form : null;
