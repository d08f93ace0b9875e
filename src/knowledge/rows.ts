import { documents, users } from '../db/schema';
import type { Item } from './schemas';

/** The columns of an item as selected from `documents`. */
export const itemColumns = {
  id: documents.id,
  title: documents.title,
  content: documents.content,
  excerpt: documents.excerpt,
  technology: documents.technology,
  domain: documents.domain,
  category: documents.category,
  tags: documents.tags,
  version: documents.version,
  isPublished: documents.isPublished,
  isTemplate: documents.isTemplate,
  templateType: documents.templateType,
  attachedImages: documents.attachedImages,
  formModel: documents.formModel,
  authorId: documents.authorId,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
};

export const authorColumns = {
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  authorEmail: users.email,
};

/** An item as the database returns it: the API item with real dates and the stored form model. */
export type ItemRow = Omit<Item, 'createdAt' | 'updatedAt' | 'formModel' | 'author'> & {
  formModel: unknown;
  createdAt: Date;
  updatedAt: Date;
};

type AuthorRow = { authorFirstName: string | null; authorLastName: string | null; authorEmail: string | null };

/** A selected row (optionally with author columns) → the JSON item. */
export function toItem(row: ItemRow & Partial<AuthorRow>): Item {
  const { authorFirstName, authorLastName, authorEmail, ...r } = row;
  return {
    id: r.id,
    title: r.title,
    content: r.content,
    excerpt: r.excerpt,
    technology: r.technology,
    domain: r.domain,
    category: r.category,
    tags: r.tags ?? [],
    version: r.version,
    isPublished: r.isPublished,
    isTemplate: r.isTemplate,
    templateType: r.templateType,
    attachedImages: r.attachedImages ?? [],
    formModel: (r.formModel as Record<string, unknown> | null) ?? null,
    authorId: r.authorId,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    author: authorEmail
      ? { firstName: authorFirstName ?? null, lastName: authorLastName ?? null, email: authorEmail }
      : null,
  };
}

/** The whole item at a version, kept in document_versions.snapshot so a restore brings everything back. */
export function snapshotOf(row: ItemRow) {
  return {
    excerpt: row.excerpt,
    technology: row.technology,
    domain: row.domain,
    category: row.category,
    tags: row.tags,
    isPublished: row.isPublished,
    isTemplate: row.isTemplate,
    templateType: row.templateType,
    attachedImages: row.attachedImages,
    formModel: row.formModel ?? null,
  };
}
