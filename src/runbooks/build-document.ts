import { BUILD_ENVIRONMENTS, contentOf, emptyBuild, type BuildForm, type Fields } from '../knowledge/shared';
import type { Server } from '../servers/shared';

/** The build form's environment option for a server's environment (production → Production). */
export function buildEnvironmentOf(environment: Server['environment']): string {
  return BUILD_ENVIRONMENTS.find((e) => e.toLowerCase() === environment) ?? BUILD_ENVIRONMENTS[0];
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "label: value" pairs with a value, joined by `separator`. */
function labelledList(pairs: [string, string | null][], separator: string): string {
  return pairs
    .filter(([, v]) => v?.trim())
    .map(([k, v]) => `${k}: ${v!.trim()}`)
    .join(separator);
}

/** "Physical (Lenovo SR650 V3)", "Virtual", or the hardware model alone. */
function serverTypeOf(s: Server): string {
  const type = s.serverType?.trim() ? capitalised(s.serverType.trim()) : '';
  const model = s.hardwareModel?.trim() ?? '';
  if (type && model) return `${type} (${model})`;
  return type || model;
}

/** The server's functions, one a line, then its description. */
function purposeOf(s: Server): string {
  const functions = labelledList(
    [
      ['Primary function', s.primaryFunction],
      ['Secondary function', s.secondaryFunction],
      ['Tertiary function', s.tertiaryFunction],
    ],
    '\n',
  );
  return [functions, s.description?.trim() ?? ''].filter(Boolean).join('\n\n');
}

/** Who owns and answers for the server: the team, its contacts and who manages it. */
const ownersOf = (s: Server) =>
  labelledList(
    [
      ['Team owner', s.teamOwner],
      ['Key contacts', s.keyContacts],
      ['Managed by', s.managedBy],
    ],
    '; ',
  );

/** Where a problem goes: the owning team and its contacts, or nothing. */
function escalationOf(s: Server): string {
  const team = s.teamOwner?.trim();
  const contacts = s.keyContacts?.trim();
  if (!team && !contacts) return '';
  if (team && contacts) return `Escalate to ${team} (key contacts: ${contacts}).`;
  return team ? `Escalate to ${team}.` : `Escalate to the key contacts: ${contacts}.`;
}

/**
 * The server build form (spec § Build form model) pre-filled from a server record: identity, environment, type, OS,
 * purpose from its functions, network from zone/domain/IP/hostname, owners as dependencies; one empty build step.
 */
export function buildDocumentFor(s: Server, buildEngineer: string): BuildForm {
  const empty = emptyBuild();
  const escalation = escalationOf(s);
  return {
    ...empty,
    serverName: s.name,
    buildEngineer,
    environment: buildEnvironmentOf(s.environment),
    serverType: serverTypeOf(s),
    osVersion: s.operatingSystem ?? '',
    serverPurpose: purposeOf(s),
    networkRequirements: labelledList(
      [
        ['Network zone', s.network],
        ['Domain', s.domain],
        ['IP address', s.ipAddress],
        ['Hostname', s.hostname],
      ],
      '; ',
    ),
    dependencies: ownersOf(s),
    troubleshootingNotes: escalation ? [escalation] : empty.troubleshootingNotes,
  };
}

/** The title a build document created from a server starts with. */
export const buildDocumentTitle = (s: Pick<Server, 'name'>) => `Build document: ${s.name}`;

/** The editor's starting fields for a build document of a server: its title, the pre-filled form and its markdown. */
export function buildDocumentFields(s: Server, buildEngineer: string): Partial<Fields> {
  const form = buildDocumentFor(s, buildEngineer);
  const title = buildDocumentTitle(s);
  return { title, form, content: contentOf(form, title), templateType: 'build_document', category: 'build' };
}
