import { pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common';

/** invited: added by an invitation, until the invitee registers with that address (then active). */
export const teamMemberStatuses = ['active', 'inactive', 'invited'] as const;

export const teamMembers = pgTable('team_members', {
  id: id(),
  name: varchar('name', { length: 200 }).notNull(),
  email: varchar('email', { length: 255 }).notNull().unique(),
  role: varchar('role', { length: 100 }).notNull(),
  department: varchar('department', { length: 100 }),
  profileImageUrl: text('profile_image_url'),
  status: varchar('status', { length: 20, enum: teamMemberStatuses }).notNull().default('active'),
  lastActive: timestamp('last_active', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
