import cron from 'node-cron';
import { z } from 'zod';
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
    },
    unverifiedAccountDays: env.UNVERIFIED_ACCOUNT_DAYS,
    /** Audit events older than this are deleted by the audit-retention job. */
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
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
