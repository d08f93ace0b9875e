import { alias } from 'drizzle-orm/pg-core';
import { documents, users } from '../db/schema';
import type { Item } from './schemas';
import { ITEM_FIELDS, pick, SNAPSHOT_FIELDS } from './shared';

/** The columns of an item as selected from `documents` (ITEM_FIELDS). */
export const itemColumns = pick(documents, ITEM_FIELDS);

export const authorColumns = {
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  authorEmail: users.email,
};

/** The owner's row, joined beside the author's (single-item reads). */
export const owners = alias(users, 'owners');

export const ownerColumns = {
  ownerFirstName: owners.firstName,
  ownerLastName: owners.lastName,
  ownerEmail: owners.email,
};

/** An item as the database returns it: the API item with real dates and the stored form model. */
export type ItemRow = Omit<
  Item,
  'createdAt' | 'updatedAt' | 'reviewedAt' | 'reviewDueAt' | 'needsReview' | 'formModel' | 'author' | 'owner'
> & {
  formModel: unknown;
  createdAt: Date;
  updatedAt: Date;
  reviewedAt: Date | null;
  reviewDueAt: Date | null;
};

type AuthorRow = { authorFirstName: string | null; authorLastName: string | null; authorEmail: string | null };
type OwnerRow = { ownerFirstName: string | null; ownerLastName: string | null; ownerEmail: string | null };

const person = (firstName: string | null | undefined, lastName: string | null | undefined, email: string) => ({
  firstName: firstName ?? null,
  lastName: lastName ?? null,
  email,
});

/** A selected row (optionally with author and owner columns) → the JSON item. */
export function toItem(row: ItemRow & Partial<AuthorRow> & Partial<OwnerRow>): Item {
  const { authorFirstName, authorLastName, authorEmail, ownerFirstName, ownerLastName, ownerEmail, ...r } = row;
  return {
    ...pick(r, ITEM_FIELDS),
    tags: r.tags ?? [],
    attachedImages: r.attachedImages ?? [],
    formModel: (r.formModel as Record<string, unknown> | null) ?? null,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    reviewedAt: isoOrNull(r.reviewedAt),
    reviewDueAt: isoOrNull(r.reviewDueAt),
    needsReview: !!r.reviewDueAt && new Date(r.reviewDueAt).getTime() <= Date.now(),
    author: authorEmail ? person(authorFirstName, authorLastName, authorEmail) : null,
    ...(ownerEmail !== undefined
      ? { owner: ownerEmail ? person(ownerFirstName, ownerLastName, ownerEmail) : null }
      : {}),
  };
}

const isoOrNull = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The whole item at a version, kept in document_versions.snapshot so a restore brings everything back. */
export function snapshotOf(row: ItemRow) {
  return { ...pick(row, SNAPSHOT_FIELDS), formModel: row.formModel ?? null };
}
