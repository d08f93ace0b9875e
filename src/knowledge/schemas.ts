import { z } from 'zod';

/** Spec §3 templateType values (knowledge items also use general and build_document). */
export const templateTypes = [
  'server_setup',
  'network_config',
  'security_audit',
  'maintenance',
  'troubleshooting',
  'work_instruction',
  'how_to_guide',
  'general',
  'build_document',
] as const;
export type TemplateType = (typeof templateTypes)[number];

export const spaces = ['documents', 'knowledge'] as const;
export type Space = (typeof spaces)[number];

/** The API base of each space. */
export const spaceBase = { documents: '/api/documents', knowledge: '/api/knowledge-base' } as const;
export type ApiBase = (typeof spaceBase)[Space];

const optionalText = (max?: number, label?: string) =>
  (max ? z.string().max(max, `${label} must be at most ${max} characters.`) : z.string()).nullable().optional();

/** A document or knowledge item as sent by the editor (create and update). */
export const documentInput = z.object({
  title: z
    .string({ error: 'Title is required.' })
    .trim()
    .min(1, 'Title is required.')
    .max(255, 'Title must be at most 255 characters.'),
  content: z.string({ error: 'Content is required.' }).refine((s) => s.trim().length > 0, 'Content is required.'),
  excerpt: optionalText(),
  technology: optionalText(50, 'Technology'),
  domain: optionalText(20, 'Domain'),
  category: optionalText(100, 'Category'),
  tags: z
    .array(
      z.string({ error: 'Tags must be a list of text.' }).trim().max(100, 'A tag must be at most 100 characters.'),
      { error: 'Tags must be a list of text.' },
    )
    .max(100, 'At most 100 tags.')
    .optional(),
  isPublished: z.boolean({ error: 'isPublished must be true or false.' }).optional(),
  isTemplate: z.boolean({ error: 'isTemplate must be true or false.' }).optional(),
  templateType: z.enum(templateTypes, { error: 'Template type is not one of the known types.' }).nullable().optional(),
  attachedImages: z
    .array(z.string().max(500), { error: 'Attached images must be a list of paths.' })
    .max(200)
    .optional(),
  formModel: z.record(z.string(), z.unknown(), { error: 'formModel must be an object.' }).nullable().optional(),
  /** The version the edit was based on; a stale one answers 409. */
  version: z.number({ error: 'version must be a number.' }).int().positive().optional(),
});
export type DocumentInput = z.infer<typeof documentInput>;

/** Restore may carry the version the restore was based on. */
export const restoreInput = z.object({ version: z.number().int().positive().optional() }).optional();

export interface ItemAuthor {
  firstName: string | null;
  lastName: string | null;
  email: string;
}

/** A document or knowledge item as JSON (dates as ISO strings). */
export interface Item {
  id: string;
  title: string;
  content: string;
  excerpt: string | null;
  technology: string | null;
  domain: string | null;
  category: string | null;
  tags: string[];
  version: number;
  isPublished: boolean;
  isTemplate: boolean;
  templateType: TemplateType | null;
  attachedImages: string[];
  formModel: Record<string, unknown> | null;
  authorId: string | null;
  createdAt: string;
  updatedAt: string;
  author?: ItemAuthor | null;
}

/** One row of the version list (spec §3 Document version + authorName). */
export interface VersionItem {
  id: string;
  version: number;
  title: string;
  content: string;
  authorName: string;
  createdAt: string;
  changeLog: string | null;
}

export { kbTypes, kbTypeLabels, kbTypeFilterLabels, kbTypeOf, type KbType } from './labels';
import { kbTypes } from './labels';

export const views = ['grid', 'list', 'category'] as const;
export type ViewMode = (typeof views)[number];

/** The filters of the list screens (a GET form: every state is a URL). */
export const listQuery = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  type: z.enum(kbTypes).optional().catch(undefined),
  category: z.string().trim().max(100).optional().catch(undefined),
  view: z.enum(views).optional().catch(undefined),
});
export type ListQuery = z.infer<typeof listQuery>;
