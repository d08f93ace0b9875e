import type { TemplateType } from '../../../src/knowledge/schemas';

/** Spec §5: editor domain options. */
export const DOMAINS = ['ALL', 'AU', 'CORP', 'NZ', 'IE', 'UK', 'SG', 'MY', 'SPACE'] as const;

/** Spec §5: technology suggestions. */
export const TECHNOLOGIES = ['VMware', 'Azure', 'O365', 'Windows Servers'] as const;

/** Spec §5: categories offered (plus a custom one). */
export const CATEGORIES = [
  'Azure',
  'O365',
  'vMware',
  'Windows Server',
  'Teams',
  'Exchange SE',
  'Exchange Online',
  'Windows 11',
  'ADFS',
  'Patching',
  'Enterprise Vault',
  'POS',
  'Server Hardware',
  'Citrix',
  'Ivanti',
  'SCCM',
  'Intune',
  'DNS',
] as const;

/** Spec §5: build environment options. */
export const BUILD_ENVIRONMENTS = ['Production', 'Staging', 'Development', 'Testing'] as const;

/** Template Type select: spec §3 values with their labels (documents offer the first seven). */
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

export const DOCUMENT_TEMPLATE_TYPES: TemplateType[] = [
  'server_setup',
  'network_config',
  'security_audit',
  'maintenance',
  'troubleshooting',
  'work_instruction',
  'how_to_guide',
];
export const KNOWLEDGE_TEMPLATE_TYPES: TemplateType[] = [...DOCUMENT_TEMPLATE_TYPES, 'general', 'build_document'];
