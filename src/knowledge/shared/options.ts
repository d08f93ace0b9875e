/** Spec §5: the editor's fixed choices. */

/** Domain options. */
export const DOMAINS = ['ALL', 'AU', 'CORP', 'NZ', 'IE', 'UK', 'SG', 'MY', 'SPACE'] as const;

/** Technology suggestions. */
export const TECHNOLOGIES = ['VMware', 'Azure', 'O365', 'Windows Servers'] as const;

/** Categories offered (plus a custom one). */
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
