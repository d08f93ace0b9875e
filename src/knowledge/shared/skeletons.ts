import { emptyForm } from './form-model';
import { contentOf } from './form-markdown';
import { formKindOf, type TemplateType } from './item-types';

const WORK_INSTRUCTION = `# Work Instruction

## Purpose
Why this procedure exists and when to use it.

## Scope
Systems, sites and teams this applies to.

## Responsibilities
| Role | Responsibility |
| --- | --- |
| Engineer | Carries out the procedure |
| Approver | Approves the change |

## Prerequisites
- Access required:
- Tools needed:

## Procedure
1. First step
2. Second step
3. Third step

## Verification
How to confirm the procedure succeeded.

## Rollback
How to undo the change if something goes wrong.

## References
- Related documents
`;

const generic = (title: string, sections: [string, string][]) =>
  `# ${title}\n\n${sections.map(([h, body]) => `## ${h}\n${body}`).join('\n\n')}\n`;

const SKELETONS: Partial<Record<TemplateType, () => string>> = {
  work_instruction: () => WORK_INSTRUCTION,
  server_setup: () =>
    generic('Server Setup', [
      ['Server Details', '- Hostname:\n- IP address:\n- Operating system:'],
      ['Installation Steps', '1. Install the operating system\n2. Apply updates\n3. Join the domain'],
      ['Configuration', 'Roles, features and settings.'],
      ['Verification', 'How to confirm the server is ready.'],
    ]),
  network_config: () =>
    generic('Network Configuration', [
      ['Overview', 'What is being configured and why.'],
      ['Devices', '| Device | IP address | Role |\n| --- | --- | --- |\n|  |  |  |'],
      ['Configuration Steps', '1. First step\n2. Second step'],
      ['Testing', 'Connectivity checks and expected results.'],
    ]),
  security_audit: () =>
    generic('Security Audit', [
      ['Scope', 'Systems covered by this audit.'],
      [
        'Checklist',
        '- [ ] Patches up to date\n- [ ] Accounts reviewed\n- [ ] Firewall rules reviewed\n- [ ] Backups verified',
      ],
      ['Findings', '| Finding | Severity | Action |\n| --- | --- | --- |\n|  |  |  |'],
      ['Sign-off', 'Auditor and date.'],
    ]),
  maintenance: () =>
    generic('Maintenance', [
      ['Schedule', 'When and how often.'],
      ['Tasks', '- [ ] Task one\n- [ ] Task two'],
      ['Impact', 'Services affected and communication.'],
      ['Rollback', 'How to back out.'],
    ]),
  troubleshooting: () =>
    generic('Troubleshooting', [
      ['Symptoms', 'What users or monitoring see.'],
      ['Possible Causes', '- Cause one\n- Cause two'],
      ['Resolution Steps', '1. First check\n2. Second check'],
      ['Escalation', 'Who to contact if unresolved.'],
    ]),
  general: () =>
    generic('Title', [
      ['Overview', 'Summary of the topic.'],
      ['Details', 'The main content.'],
      ['References', '- Links'],
    ]),
};

/** The skeleton content a template type fills into a new, empty document (spec §4). */
export function skeletonFor(type: TemplateType | null | undefined): string {
  const form = formKindOf(type);
  if (form) return contentOf(emptyForm(form), '');
  return (type && SKELETONS[type]?.()) || '';
}
