import type { ItemVisibility } from './item-fields';

/** Shares of an item as the Share dialog lists them (browser-safe: the islands import it). */

export type SharePermission = 'read' | 'write';

export interface ItemShare {
  id: string;
  /** A share with a user; null for a share link. */
  user: { id: string; name: string; email: string } | null;
  permission: SharePermission;
  expiresAt: string | null;
  lastOpenedAt: string | null;
  createdAt: string;
  /** A new link share only: its address, shown once (only its hash is kept). */
  url?: string;
}

/** A user the Share dialog may pick. */
export interface ShareableUser {
  id: string;
  name: string;
  email: string;
}

/** What the visibility choice says. */
export const VISIBILITY_LABELS: Record<ItemVisibility, string> = {
  everyone: 'Everyone in the workspace',
  restricted: 'Restricted: the owner, admins and the people it is shared with',
};

/** Where a share link opens (the public read-only page). */
export const shareLinkPath = (token: string) => `/s/${token}`;
