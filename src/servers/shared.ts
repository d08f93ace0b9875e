/**
 * The zod-free half of the server schema: option lists, the Server JSON shape, the form rules and
 * display helpers. Islands import this (zod would add ~60 KiB gzip to the infrastructure page);
 * schemas.ts builds the zod schemas from the same rules and re-exports all of it.
 */

export const SERVER_STATUSES = ['online', 'warning', 'offline', 'maintenance', 'unknown'] as const;
export const ENVIRONMENTS = ['production', 'staging', 'development'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];
export type ServerEnvironment = (typeof ENVIRONMENTS)[number];

/** Spec §5: one parent and seven regional company domains. */
export const DOMAINS = [
  'corp.example.com',
  'au.corp.example.com',
  'nz.corp.example.com',
  'uk.corp.example.com',
  'ie.corp.example.com',
  'sg.corp.example.com',
  'my.corp.example.com',
  'us.corp.example.com',
] as const;
export const NETWORK_ZONES = ['DMZ', 'Hosting Zone', 'Secure Zone'] as const;
export const OPERATING_SYSTEMS = [
  'Windows Server 2019',
  'Windows Server 2022',
  'Ubuntu 20.04 LTS',
  'Ubuntu 22.04 LTS',
  'Ubuntu 24.04 LTS',
  'Red Hat Enterprise Linux 8',
  'Red Hat Enterprise Linux 9',
  'CentOS 8',
  'CentOS 9',
  'Debian 11',
  'Debian 12',
] as const;
export const SERVER_TYPES = ['virtual', 'physical'] as const;
export const HARDWARE_MODELS = [
  'Lenovo SR650 V1',
  'Lenovo SR650 V2',
  'Lenovo SR650 V3',
  'Lenovo M5',
  'Lenovo M4',
] as const;

/** Spec §9: table columns and which are shown by default. */
export const SERVER_COLUMNS = [
  { id: 'server', label: 'Server', visible: true },
  { id: 'status', label: 'Status', visible: true },
  { id: 'environment', label: 'Environment', visible: true },
  { id: 'cpu', label: 'CPU', visible: true },
  { id: 'memory', label: 'Memory', visible: true },
  { id: 'uptime', label: 'Uptime', visible: true },
  { id: 'lastCheck', label: 'Last Check', visible: true },
  { id: 'os', label: 'OS', visible: false },
  { id: 'serverType', label: 'Type', visible: false },
  { id: 'location', label: 'Location', visible: false },
  { id: 'primaryFunction', label: 'Primary Function', visible: false },
  { id: 'team', label: 'Team', visible: false },
  { id: 'actions', label: 'Actions', visible: true },
] as const;
export const COLUMNS_STORAGE_KEY = 'server-table-columns';

/** A server as the API answers it (spec §3, camelCase, dates as ISO strings) plus monitorPort. */
export type Server = {
  id: string;
  name: string;
  hostname: string | null;
  ipAddress: string | null;
  domain: string | null;
  network: string | null;
  environment: ServerEnvironment;
  operatingSystem: string | null;
  serverType: string | null;
  hardwareModel: string | null;
  serverLocation: string | null;
  primaryFunction: string | null;
  secondaryFunction: string | null;
  tertiaryFunction: string | null;
  teamOwner: string | null;
  /** Labels alert rules and searches select servers by: lower case, at most MAX_TAGS. */
  tags: string[];
  keyContacts: string | null;
  description: string | null;
  notes: string | null;
  status: ServerStatus;
  cpuUsage: number;
  memoryUsage: number;
  diskUsage: number;
  uptime: number;
  lastHealthCheck: string | null;
  /** When an agent last pushed metrics; null: never, so cpu, memory, disk and uptime are not known. */
  metricsUpdatedAt: string | null;
  managedBy: string | null;
  monitorPort: number;
  /** Failed rounds in a row (offline at HEALTH_CHECK_FAILURES). */
  consecutiveFailures: number;
  /** Since when the status flips more than HEALTH_CHECK_FLAP_LIMIT times an hour; null: not flapping. */
  flappingSince: string | null;
  /** The maintenance window the last check found the server in (nobody alerted); null: none. */
  maintenanceWindowId: string | null;
  createdAt: string;
  updatedAt: string;
};

export const HOSTNAME =
  /^(?=.{1,255}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/;

/** The most servers one GET /api/servers?limit= answers. */
export const SERVER_LIST_LIMIT = 100;

export interface ServerFilters {
  q?: string;
  environment?: ServerEnvironment;
  status?: ServerStatus;
  /** At most this many (1–SERVER_LIST_LIMIT), the first in natural name order; absent: all. */
  limit?: number;
}

/** IPv4 dotted quad or IPv6 (with optional embedded IPv4), no zone ids. */
export function isIp(value: string): boolean {
  return isIpv4(value) || isIpv6(value);
}

function isIpv4(v: string): boolean {
  const parts = v.split('.');
  return parts.length === 4 && parts.every((p) => /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(p));
}

function isIpv6(v: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(v) || v.split('::').length > 2) return false;
  let groups = v.split(':');
  const last = groups[groups.length - 1];
  let need = 8;
  if (last.includes('.')) {
    if (!isIpv4(last)) return false;
    groups = groups.slice(0, -1);
    need = 6;
  }
  const filled = groups.filter((g) => g !== '');
  if (!filled.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  if (v.includes('::')) return filled.length < need;
  return groups.length === need;
}

/** The id of the server page's Runbooks card (src/servers/views/ServerRunbooks.tsx). */
export const SERVER_RUNBOOKS_ID = 'runbooks';

/** The server page at its Runbooks card (the server table's "N runbooks" links there). */
export const serverRunbooksHref = (serverId: string) => `/infrastructure/${serverId}#${SERVER_RUNBOOKS_ID}`;

/** Rows per page of the server table. */
export const SERVER_PAGE_SIZE = 50;

/** Shown where a value is not known (no metrics pushed, never checked). */
export const UNKNOWN_VALUE = '—';

const nameCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Server names in natural order, ignoring case: web-2 before web-10, "DB-1" beside "db-1". */
export function compareServerNames(a: string, b: string): number {
  return nameCollator.compare(a, b);
}

/** A copy of the list in natural name order (the table, the API list, the assistant's lists). */
export function sortByServerName<T extends { name: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => compareServerNames(a.name, b.name));
}

type Metrics = Pick<Server, 'metricsUpdatedAt'>;

/** A pushed usage as "42%", or "—" when no agent ever pushed metrics (a 0 there means "not known", not idle). */
export function usageText(s: Metrics, value: number): string {
  return s.metricsUpdatedAt ? `${Math.round(value)}%` : UNKNOWN_VALUE;
}

/** Uptime as days and hours (86400 s a day), or "—" when no agent ever pushed metrics. */
export function uptimeText(s: Metrics & Pick<Server, 'uptime'>): string {
  if (!s.metricsUpdatedAt) return UNKNOWN_VALUE;
  const days = Math.floor(s.uptime / 86400);
  const hours = Math.floor((s.uptime % 86400) / 3600);
  return `${days}d ${hours}h`;
}

/** The last health check's time (formatted by the caller, in the user's timezone), or "—" when never checked. */
export function lastCheckText(s: Pick<Server, 'lastHealthCheck'>, formatTime: (iso: string) => string): string {
  return s.lastHealthCheck ? formatTime(s.lastHealthCheck) : UNKNOWN_VALUE;
}

/** How long a probe waits for the TCP connection: the same for the round, Run Health Check and Check now. */
export const PROBE_TIMEOUT_MS = 3000;

/** True when Add Server answered before the first check ended (it goes on, and is stored when the probe ends). */
export function firstCheckPending(s: Pick<Server, 'status' | 'lastHealthCheck' | 'ipAddress' | 'hostname'>): boolean {
  return s.status !== 'maintenance' && !s.lastHealthCheck && !!(s.ipAddress ?? s.hostname);
}

/** What a health check found: null when it did not probe (the server is in maintenance). */
export type HealthCheckResult = {
  status: ServerStatus;
  latencyMs: number | null;
  error: string | null;
  /** A check failed in this round (the server goes offline only after `failuresToOffline` such rounds in a row). */
  failed?: boolean;
  consecutiveFailures?: number;
  failuresToOffline?: number;
} | null;

/** The answer of POST /api/servers/{id}/health-check: the server as stored after the check, and the check. */
export type CheckedServer = Server & { check: HealthCheckResult };

/** "Health Check Complete" text: what the probe found, in its own words ("db-02 is offline: connection refused"). */
export function healthCheckMessage(name: string, check: HealthCheckResult): string {
  if (!check) return `${name} is in maintenance: it was not probed.`;
  if (check.status === 'offline') return check.error ? `${name} is offline: ${check.error}` : `${name} is offline.`;
  if (check.failed) {
    const count = `${check.consecutiveFailures ?? 1} failed check${check.consecutiveFailures === 1 ? '' : 's'} in a row`;
    const limit = check.failuresToOffline ? `, offline after ${check.failuresToOffline}` : '';
    return `${name} did not pass its check${check.error ? ` (${check.error})` : ''}: ${count}${limit}.`;
  }
  const answered = `answered in ${check.latencyMs ?? 0} ms`;
  if (check.status === 'warning' && check.error) return `${name} is in warning: ${answered}, but ${check.error}.`;
  if (check.status === 'warning')
    return `${name} is in warning: ${answered}, but CPU, memory or disk is at 90% or more.`;
  return `${name} is ${check.status}: ${answered}.`;
}

/** The banner for a ?server= link to a server that is not there (the knowledge base's ?doc= wording). */
export const MISSING_SERVER = 'That server does not exist or was deleted.';

/** Optional text fields of the server form: label and maximum length (name, hostname, ipAddress checked apart). */
export const TEXT_LIMITS = {
  domain: ['Domain', 100],
  network: ['Network zone', 100],
  operatingSystem: ['Operating system', 100],
  serverType: ['Server type', 50],
  hardwareModel: ['Hardware model', 100],
  serverLocation: ['Location', 100],
  primaryFunction: ['Primary function', 200],
  secondaryFunction: ['Secondary function', 200],
  tertiaryFunction: ['Tertiary function', 200],
  teamOwner: ['Team owner', 100],
  keyContacts: ['Key contacts', 2000],
  description: ['Description', 5000],
  notes: ['Notes', 5000],
  managedBy: ['Managed by', 100],
} as const satisfies Record<string, readonly [string, number]>;

/** Server tags: at most this many, each at most TAG_MAX characters. */
export const MAX_TAGS = 20;
export const TAG_MAX = 50;
const TAG = /^[\p{L}\p{N}][\p{L}\p{N} ._:/-]*$/u;

/**
 * Tags from a comma-separated text (the form) or a list (the API): trimmed, lower case, empty ones and repeats
 * dropped; the error names the first tag refused.
 */
export function parseTags(value: string | readonly string[] | null | undefined): { tags: string[]; error?: string } {
  const parts = typeof value === 'string' ? value.split(',') : (value ?? []);
  const tags = [...new Set(parts.map((t) => t.trim().toLowerCase()).filter(Boolean))];
  const bad = tags.find((t) => t.length > TAG_MAX || !TAG.test(t));
  if (bad) {
    const shown = bad.length > 20 ? `${bad.slice(0, 20)}…` : bad;
    return {
      tags,
      error:
        bad.length > TAG_MAX
          ? `Tag "${shown}" is longer than ${TAG_MAX} characters.`
          : `Tag "${shown}" may use letters, digits, spaces and . _ : / - only.`,
    };
  }
  if (tags.length > MAX_TAGS) return { tags, error: `A server takes at most ${MAX_TAGS} tags.` };
  return { tags };
}

export const MESSAGES = {
  nameRequired: 'Server name is required.',
  nameLong: 'Server name must be at most 100 characters.',
  hostname: 'Hostname must be a valid host name.',
  ip: 'IP address must be a valid IPv4 or IPv6 address.',
  environment: 'Environment must be production, staging or development.',
  status: 'Status must be online, warning, offline, maintenance or unknown.',
  port: 'Monitor port must be between 1 and 65535.',
  portNumber: 'Monitor port must be a number.',
  portWhole: 'Monitor port must be a whole number.',
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
};

export type ServerFormData = Omit<
  Server,
  | 'id'
  | 'cpuUsage'
  | 'memoryUsage'
  | 'diskUsage'
  | 'uptime'
  | 'lastHealthCheck'
  | 'metricsUpdatedAt'
  | 'consecutiveFailures'
  | 'flappingSince'
  | 'maintenanceWindowId'
  | 'createdAt'
  | 'updatedAt'
>;

/**
 * The server form's rules without zod (the island's check; the API checks the same rules with
 * schemas.ts serverInput). Returns the cleaned data or the first problem per field.
 */
export function checkServerForm(form: Record<string, string | undefined>): {
  data: ServerFormData | null;
  errors: Record<string, string>;
} {
  const errors: Record<string, string> = {};
  const val = (k: string) => (form[k] ?? '').trim();
  const opt = (k: string) => val(k) || null;
  const name = val('name');
  if (!name) errors.name = MESSAGES.nameRequired;
  else if (name.length > 100) errors.name = MESSAGES.nameLong;
  const hostname = opt('hostname');
  if (hostname && (hostname.length > 255 || !HOSTNAME.test(hostname)))
    errors.hostname = hostname.length > 255 ? MESSAGES.tooLong('Hostname', 255) : MESSAGES.hostname;
  const ipAddress = opt('ipAddress');
  if (ipAddress && (ipAddress.length > 45 || !isIp(ipAddress))) errors.ipAddress = MESSAGES.ip;
  const environment = (val('environment') || 'development') as ServerEnvironment;
  if (!ENVIRONMENTS.includes(environment)) errors.environment = MESSAGES.environment;
  const status = (val('status') || 'unknown') as ServerStatus;
  if (!SERVER_STATUSES.includes(status)) errors.status = MESSAGES.status;
  const port = val('monitorPort') === '' ? 22 : Number(val('monitorPort'));
  if (Number.isNaN(port)) errors.monitorPort = MESSAGES.portNumber;
  else if (!Number.isInteger(port)) errors.monitorPort = MESSAGES.portWhole;
  else if (port < 1 || port > 65535) errors.monitorPort = MESSAGES.port;
  const tags = parseTags(form.tags);
  if (tags.error) errors.tags = tags.error;
  const texts: Record<string, string | null> = {};
  for (const [k, [label, max]] of Object.entries(TEXT_LIMITS)) {
    texts[k] = opt(k);
    if ((texts[k]?.length ?? 0) > max) errors[k] = MESSAGES.tooLong(label, max);
  }
  if (Object.keys(errors).length) return { data: null, errors };
  return {
    data: {
      ...(texts as Record<keyof typeof TEXT_LIMITS, string | null>),
      name,
      hostname,
      ipAddress,
      environment,
      status,
      monitorPort: port,
      tags: tags.tags,
    },
    errors,
  };
}

/** Check kinds (issue 24) in the order the server form offers them. */
export const CHECK_KINDS = ['tcp', 'http', 'https', 'tls', 'dns'] as const;
export type ServerCheckKind = (typeof CHECK_KINDS)[number];

/** Which optional fields each check kind uses (the form shows these; the API refuses the others). */
export const CHECK_FIELDS = {
  tcp: ['port'],
  http: ['port', 'path', 'expectStatus', 'expectText'],
  https: ['port', 'path', 'expectStatus', 'expectText'],
  tls: ['port', 'warnDays'],
  dns: ['expectAddress'],
} as const satisfies Record<ServerCheckKind, readonly CheckField[]>;
export type CheckField = 'port' | 'path' | 'expectStatus' | 'expectText' | 'warnDays' | 'expectAddress';
export const CHECK_FIELD_NAMES: readonly CheckField[] = [
  'port',
  'path',
  'expectStatus',
  'expectText',
  'warnDays',
  'expectAddress',
];

/**
 * One check as GET|PUT /api/servers/{id}/checks answer it. The implicit tcp check (a server without explicit
 * checks) has id null, as its results have checkId null. Fields a kind does not use are null.
 */
export interface ServerCheck {
  id: string | null;
  kind: ServerCheckKind;
  target: string;
  port: number | null;
  path: string | null;
  expectStatus: number | null;
  expectText: string | null;
  warnDays: number | null;
  expectAddress: string | null;
  lastStatus: 'ok' | 'warning' | 'failing' | null;
  lastCheckedAt: string | null;
  lastError: string | null;
}

/** A check in a few words: "http 127.0.0.1:8080/healthz", "dns db.example.com → 10.0.0.5", "tcp web-01:22". */
export function checkLabel(c: Pick<ServerCheck, 'kind' | 'target' | 'port' | 'path' | 'expectAddress'>): string {
  const host = c.target.includes(':') ? `[${c.target}]` : c.target;
  const address = `${host}${c.port === null ? '' : `:${c.port}`}${c.path ?? ''}`;
  return `${c.kind} ${address}${c.expectAddress ? ` → ${c.expectAddress}` : ''}`;
}
