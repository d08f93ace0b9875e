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
