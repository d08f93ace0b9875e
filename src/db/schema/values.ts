/**
 * Value lists stored in columns, written once: the tables type their columns with them and the features'
 * browser-safe shared modules re-export them. Pure constants, no imports, so islands may bundle them.
 */

/** Knowledge items and documents share one table; `documents.space` tells them apart. */
export const spaces = ['documents', 'knowledge'] as const;

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

/** Account roles (issue 21): admin everything; editor writes content; viewer reads; auditor reads plus the audit trail. */
export const roles = ['admin', 'editor', 'viewer', 'auditor'] as const;
export type Role = (typeof roles)[number];

/** Who may read a knowledge item or document: everyone signed in, or only its owner, admins and its shares. */
export const visibilities = ['everyone', 'restricted'] as const;
export type Visibility = (typeof visibilities)[number];

/** Kinds of API token: a metrics agent's (scoped to servers) or a person's (acting as its owner). */
export const tokenKinds = ['metrics', 'personal'] as const;

/** What a personal API token may do: read only, or read and write (never more than its owner). */
export const tokenScopes = ['read', 'read-write'] as const;

/** Where an item is in the review workflow (issue 22); the spec's Published switch is `state = 'published'`. */
export const itemStates = ['draft', 'in_review', 'published'] as const;
export type ItemState = (typeof itemStates)[number];

/** A reviewer's answer to a review request. */
export const reviewDecisions = ['approve', 'changes'] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];

/** What an in-app notification is about (the bell's panel). */
export const notificationKinds = [
  'mention',
  'comment',
  'item_changed',
  'review_requested',
  'review_decided',
  'published',
  'review_due',
  'server_changed',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];
