import path from 'node:path';
import cron from 'node-cron';
import { z } from 'zod';
import { parseCidrList, parseHostsAndCidrs } from './http/cidr-list';
import { isValidTrustedProxies } from './http/trusted-proxies';
import { SERVERS_PANEL_POLL_MS } from './runbooks/shared';

/** A schedule: "off", or an expression the scheduler's own parser accepts (a typo must stop start-up). */
const cronExpression = z
  .string()
  .trim()
  .refine((v) => v === 'off' || cron.validate(v), 'must be a cron expression (as node-cron reads it) or "off"');

/**
 * Proxies whose X-Forwarded-For we believe: a number of hops (the last N addresses were added by our
 * proxies) or a comma-separated list of addresses/CIDRs. Unset: the socket address is the client.
 */
const trustedProxies = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string()
    .trim()
    .regex(
      /^(\d{1,2}|[0-9a-f:.]+(\/\d{1,3})?(\s*,\s*[0-9a-f:.]+(\/\d{1,3})?)*)$/i,
      'must be a number of hops or a list of addresses/CIDRs separated by commas',
    )
    .refine(isValidTrustedProxies, 'has an entry that is not an IP address or CIDR')
    .optional(),
);

/** Addresses/CIDRs separated by commas, checked at start-up (a typo must not open or close the wrong networks). */
const cidrList = z
  .string()
  .trim()
  .refine((v) => {
    try {
      parseCidrList(v);
      return true;
    } catch {
      return false;
    }
  }, 'must be IP addresses or CIDRs separated by commas');

/**
 * Link-local (IPv4 and IPv6: the cloud metadata address 169.254.169.254 among them) and the metadata addresses
 * outside it: AWS over IPv6 (fd00:ec2::254), Alibaba Cloud (100.100.100.200), Azure's wire server (168.63.129.16)
 * and Oracle Cloud (192.0.0.192).
 */
export const DEFAULT_DENY_CIDRS =
  '169.254.0.0/16,fe80::/10,fd00:ec2::254/128,100.100.100.200/32,168.63.129.16/32,192.0.0.192/32';

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/** A base64url value that decodes to exactly `bytes` bytes (VAPID keys). */
const base64urlKey = (bytes: number, what: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, `must be base64url (as "npx web-push generate-vapid-keys" prints it)`)
      .refine((v) => Buffer.from(v, 'base64url').length === bytes, `must be ${what} (${bytes} bytes, base64url)`)
      .optional(),
  );

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    APP_URL: optionalUrl,
    APP_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
    DATABASE_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
        .optional(),
    ),
    /** Connections per process (web or worker) to PostgreSQL; plan processes × this ≤ max_connections − reserve. */
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
    DATA_DIR: z.string().min(1).default('./data'),
    TRUSTED_PROXIES: trustedProxies,
    SMTP_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
        .optional(),
    ),
    MAIL_FROM: z.string().default('Ops Hub <ops-hub@localhost>'),
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    /** Tests point Google sign-in at a loopback OIDC provider; production keeps the default. */
    GOOGLE_ISSUER: optionalUrl,
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    OPENAI_API_KEY: optionalText,
    OPENAI_BASE_URL: optionalUrl,
    OPENAI_MODEL: z.string().default('gpt-4o-mini'),
    JOBS: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['inline', 'off']).optional()),
    HEALTH_CHECK_CRON: cronExpression.default('*/5 * * * *'),
    HEALTH_REPORT_CRON: cronExpression.default('0 7 * * *'),
    TOKEN_EXPIRY_CRON: cronExpression.default('17 * * * *'),
    MAIL_CRON: cronExpression.default('* * * * *'),
    REVIEW_DIGEST_CRON: cronExpression.default('0 7 * * 1'),
    AUDIT_RETENTION_CRON: cronExpression.default('43 3 * * *'),
    /** Rolls raw checks up into hours and days, refreshes uptime, prunes old history. */
    HEALTH_ROLLUP_CRON: cronExpression.default('4 * * * *'),
    /** Sends alert repeats and retries alert deliveries. */
    ALERTS_CRON: cronExpression.default('* * * * *'),
    /** Resumes import jobs a stopped process left, gives up stuck ones, forgets old previews and reports. */
    IMPORT_CRON: cronExpression.default('* * * * *'),
    /** Backups of the embedded database (src/backups): when, how many to keep, where (unset: DATA_DIR/backups). */
    BACKUP_CRON: cronExpression.default('30 2 * * *'),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
    BACKUP_DIR: optionalText,
    /** When set, the only addresses health checks may reach (loopback only ever when listed here). */
    HEALTH_CHECK_ALLOW_CIDRS: z.preprocess((v) => (v === '' ? undefined : v), cidrList.optional()),
    /** Addresses health checks never reach; wins over the allow list. */
    HEALTH_CHECK_DENY_CIDRS: cidrList.default(DEFAULT_DENY_CIDRS),
    /** Failed rounds in a row before a server is offline. */
    HEALTH_CHECK_FAILURES: z.coerce.number().int().min(1).max(20).default(2),
    /** Status changes in an hour above which a server is flapping. */
    HEALTH_CHECK_FLAP_LIMIT: z.coerce.number().int().min(2).max(60).default(6),
    /** Probes at a time per worker. */
    HEALTH_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
    /** Extra CA certificates (PEM file) trusted by https and tls checks, beside the system's. */
    HEALTH_CHECK_CA_FILE: optionalText,
    /** Raw check results kept this many days; hourly and daily rollups HEALTH_ROLLUP_DAYS. */
    HEALTH_HISTORY_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
    HEALTH_ROLLUP_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
    /** Hosts (and their subdomains) alert webhooks may post to. */
    ALERT_WEBHOOK_HOSTS: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^[a-z0-9.-]+(,[a-z0-9.-]+)*$/i, 'must be host names separated by commas')
        .optional(),
    ),
    /** Hosts (and subdomains) and addresses/CIDRs outgoing webhooks may post to; empty: none (issue 25). */
    WEBHOOK_ALLOW_HOSTS: z
      .string()
      .default('')
      .transform((v, ctx) => {
        try {
          return parseHostsAndCidrs(v);
        } catch (err) {
          ctx.addIssue({
            code: 'custom',
            message: `must be host names, IP addresses or CIDRs: ${(err as Error).message}`,
          });
          return z.NEVER;
        }
      }),
    WEBHOOKS_CRON: cronExpression.default('* * * * *'),
    VAPID_PUBLIC_KEY: base64urlKey(65, 'an uncompressed P-256 public key'),
    VAPID_PRIVATE_KEY: base64urlKey(32, 'a P-256 private key'),
    VAPID_SUBJECT: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: address or an https:// URL')
        .optional(),
    ),
    PUSH_SERVICE_HOSTS: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^[a-z0-9.-]+(,[a-z0-9.-]+)*$/i, 'must be host names separated by commas')
        .optional(),
    ),
    UNVERIFIED_ACCOUNT_DAYS: z.coerce.number().int().min(1).default(7),
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
    MCP_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
    /** An OpenAI-compatible /embeddings endpoint (Ollama, vLLM, OpenAI): retrieval by meaning (issue 26). */
    EMBEDDINGS_BASE_URL: optionalUrl,
    EMBEDDINGS_MODEL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.string().trim().min(1).max(200).default('nomic-embed-text'),
    ),
    EMBEDDINGS_API_KEY: optionalText,
    /** Cosine similarity a chunk needs to count as a match by meaning (depends on the model). */
    EMBEDDINGS_MIN_SIMILARITY: z.coerce.number().min(0).max(1).default(0.35),
    /** How long a search waits for its question's vector before answering by full text alone. */
    EMBEDDINGS_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(1_500),
    EMBEDDINGS_CRON: cronExpression.default('* * * * *'),
    /** How often an open read page refreshes its Servers panel; tests shorten it, people keep the default. */
    SERVERS_PANEL_POLL_MS: z.coerce.number().int().min(500).default(SERVERS_PANEL_POLL_MS),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Unset: readable lines on a terminal, JSON otherwise (src/http/logger.ts). */
    LOG_FORMAT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['json', 'pretty']).optional()),
  })
  .superRefine((env, ctx) => {
    // An open page asks at most once per 30 s for its Servers panel; only the test suite may ask more often.
    if (env.SERVERS_PANEL_POLL_MS < SERVERS_PANEL_POLL_MS && env.NODE_ENV !== 'test')
      ctx.addIssue({
        code: 'custom',
        path: ['SERVERS_PANEL_POLL_MS'],
        message: `must be at least ${SERVERS_PANEL_POLL_MS} (shorter only with NODE_ENV=test)`,
      });
    // Web Push is all three or nothing: half a key pair, or keys without a contact, is a mistake to report.
    const vapid = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;
    if (!vapid.some((k) => env[k])) return;
    for (const k of vapid)
      if (!env[k])
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `is required with ${vapid.filter((o) => o !== k).join(' and ')}`,
        });
  });

/** Chrome (FCM), Firefox (Mozilla autopush), Edge (WNS) and Safari (Apple) push services. */
const DEFAULT_PUSH_SERVICES =
  'fcm.googleapis.com,android.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com';

/** Slack incoming webhooks and Teams (Office 365 connectors and Power Automate workflows). */
const DEFAULT_WEBHOOK_HOSTS = 'hooks.slack.com,webhook.office.com,logic.azure.com,powerplatform.com';

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof schema>) {
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    appUrl,
    appOrigin: new URL(appUrl).origin,
    secureCookies: appUrl.startsWith('https://'),
    /** Unset → a random secret per process (signed upload links then last one process lifetime). */
    appSecret: env.APP_SECRET,
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    /** Unset → the socket address is the client; else a hop count or address/CIDR list (src/http/client-ip.ts). */
    trustedProxies: env.TRUSTED_PROXIES,
    dataDir: env.DATA_DIR,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }
        : undefined,
    /** Google's OpenID issuer (GOOGLE_ISSUER overrides it only for tests against a loopback provider). */
    googleIssuer: env.GOOGLE_ISSUER ?? 'https://accounts.google.com',
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID
        ? { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET }
        : undefined,
    openai: env.OPENAI_API_KEY
      ? { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL, model: env.OPENAI_MODEL }
      : undefined,
    /** Web Push (VAPID); unset → the Push notifications switch is shown disabled. */
    push:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY && env.VAPID_SUBJECT
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT }
        : undefined,
    /**
     * Hosts (and their subdomains) a push subscription may point at: the browsers' push services. The server
     * posts to a subscription's endpoint, so any other address would let a user make it call an internal host.
     */
    pushServiceHosts: (env.PUSH_SERVICE_HOSTS ?? DEFAULT_PUSH_SERVICES).toLowerCase().split(','),
    jobs: env.JOBS ?? (env.DATABASE_URL ? 'off' : 'inline'),
    schedules: {
      healthChecks: env.HEALTH_CHECK_CRON,
      healthReport: env.HEALTH_REPORT_CRON,
      tokenExpiry: env.TOKEN_EXPIRY_CRON,
      mail: env.MAIL_CRON,
      reviewDigest: env.REVIEW_DIGEST_CRON,
      auditRetention: env.AUDIT_RETENTION_CRON,
      healthRollup: env.HEALTH_ROLLUP_CRON,
      alerts: env.ALERTS_CRON,
      webhooks: env.WEBHOOKS_CRON,
      imports: env.IMPORT_CRON,
      embeddings: env.EMBEDDINGS_BASE_URL ? env.EMBEDDINGS_CRON : 'off',
    },
    /** Retrieval by meaning; unset base URL → full-text search only. */
    embeddings: env.EMBEDDINGS_BASE_URL
      ? {
          baseUrl: env.EMBEDDINGS_BASE_URL,
          model: env.EMBEDDINGS_MODEL,
          apiKey: env.EMBEDDINGS_API_KEY,
          minSimilarity: env.EMBEDDINGS_MIN_SIMILARITY,
          queryTimeoutMs: env.EMBEDDINGS_QUERY_TIMEOUT_MS,
        }
      : undefined,
    /** Health checks at fleet scale (issue 24). */
    health: {
      /** Unset: any address not denied, except loopback. */
      allowCidrs: env.HEALTH_CHECK_ALLOW_CIDRS ? parseCidrList(env.HEALTH_CHECK_ALLOW_CIDRS) : undefined,
      denyCidrs: parseCidrList(env.HEALTH_CHECK_DENY_CIDRS),
      failures: env.HEALTH_CHECK_FAILURES,
      flapLimit: env.HEALTH_CHECK_FLAP_LIMIT,
      concurrency: env.HEALTH_CHECK_CONCURRENCY,
      caFile: env.HEALTH_CHECK_CA_FILE,
      historyDays: env.HEALTH_HISTORY_DAYS,
      rollupDays: env.HEALTH_ROLLUP_DAYS,
    },
    /** Scheduled backups of the embedded database: the newest `keep` files in `dir` stay. */
    backup: { cron: env.BACKUP_CRON, keep: env.BACKUP_KEEP, dir: env.BACKUP_DIR ?? path.join(env.DATA_DIR, 'backups') },
    /** Slack's and Teams' webhook hosts by default; tests add a loopback name. */
    alertWebhookHosts: (env.ALERT_WEBHOOK_HOSTS ?? DEFAULT_WEBHOOK_HOSTS).toLowerCase().split(','),
    /** Where outgoing webhooks may post (src/webhooks/targets.ts); no entry: registration is refused. */
    webhookAllowHosts: env.WEBHOOK_ALLOW_HOSTS,
    unverifiedAccountDays: env.UNVERIFIED_ACCOUNT_DAYS,
    /** Audit events older than this are deleted by the audit-retention job. */
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    /** Requests a minute one personal token may send to the MCP server (POST /mcp). */
    mcpRateLimit: env.MCP_RATE_LIMIT,
    /** An open read page asks for its Servers panel at most this often (ms), and only while it is visible. */
    serversPanelPollMs: env.SERVERS_PANEL_POLL_MS,
    logLevel: env.LOG_LEVEL,
    /** Unset → pretty when stdout is a terminal, else JSON. */
    logFormat: env.LOG_FORMAT,
  };
}

export class ConfigError extends Error {}

/** Parses the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  return toConfig(parsed.data);
}
