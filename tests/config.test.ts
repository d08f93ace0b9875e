import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('config', () => {
  it('has working defaults for npm start', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.appUrl).toBe('http://localhost:3000');
    expect(c.dataDir).toBe('./data');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.jobs).toBe('inline');
    expect(c.schedules.healthChecks).toBe('*/5 * * * *');
    expect(c.schedules.healthReport).toBe('0 7 * * *');
    expect(c.schedules.reviewDigest).toBe('0 7 * * 1');
    expect(c.schedules.auditRetention).toBe('43 3 * * *');
    expect(c.secureCookies).toBe(false);
  });

  it('LOG_FORMAT: json or pretty; unset (or empty) leaves the choice to the terminal', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: '' }).logFormat).toBeUndefined();
    expect(loadConfig({}).logFormat).toBeUndefined();
  });

  it('EMBEDDINGS_*: off without a base URL (empty counts as unset, as compose passes it); bad values stop start-up', () => {
    expect(loadConfig({}).embeddings).toBeUndefined();
    expect(loadConfig({}).schedules.embeddings).toBe('off');
    const blank = loadConfig({ EMBEDDINGS_BASE_URL: '', EMBEDDINGS_MODEL: '', EMBEDDINGS_API_KEY: '' });
    expect(blank.embeddings).toBeUndefined();
    const on = loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1', EMBEDDINGS_MODEL: '' });
    expect(on.embeddings).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      apiKey: undefined,
      minSimilarity: 0.35,
      queryTimeoutMs: 1_500,
    });
    expect(on.schedules.embeddings).toBe('* * * * *');
    expect(() => loadConfig({ EMBEDDINGS_BASE_URL: 'ollama' })).toThrow(ConfigError);
    expect(() => loadConfig({ EMBEDDINGS_MIN_SIMILARITY: '2' })).toThrow(/EMBEDDINGS_MIN_SIMILARITY/);
  });

  it('SERVERS_PANEL_POLL_MS: 30 s unless set, longer at will, shorter only in tests (never below 500 ms)', () => {
    expect(loadConfig({}).serversPanelPollMs).toBe(30_000);
    expect(loadConfig({ SERVERS_PANEL_POLL_MS: '60000' }).serversPanelPollMs).toBe(60_000);
    expect(() => loadConfig({ SERVERS_PANEL_POLL_MS: '1000' })).toThrow(/SERVERS_PANEL_POLL_MS must be at least 30000/);
    expect(() => loadConfig({ SERVERS_PANEL_POLL_MS: '1000', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(loadConfig({ SERVERS_PANEL_POLL_MS: '1000', NODE_ENV: 'test' }).serversPanelPollMs).toBe(1000);
    expect(() => loadConfig({ SERVERS_PANEL_POLL_MS: '100', NODE_ENV: 'test' })).toThrow(ConfigError);
  });

  it('turns inline jobs off on PostgreSQL and reads every variable', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@127.0.0.1/db',
      APP_URL: 'https://ops.example.com/',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      OPENAI_API_KEY: 'k',
      GOOGLE_CLIENT_ID: 'g',
      GOOGLE_CLIENT_SECRET: 's',
      HEALTH_CHECK_CRON: 'off',
    });
    expect(c.jobs).toBe('off');
    expect(c.appUrl).toBe('https://ops.example.com');
    expect(c.secureCookies).toBe(true);
    expect(c.openai?.model).toBe('gpt-4o-mini');
    expect(c.google).toEqual({ clientId: 'g', clientSecret: 's' });
    expect(c.schedules.healthChecks).toBe('off');
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['APP_URL', 'not a url'],
    ['JOBS', 'sometimes'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_FORMAT', 'colourful'],
    ['HEALTH_CHECK_CRON', 'often'],
    // Five fields that look like a schedule but that the scheduler's parser refuses (issue 17 item 22).
    ['HEALTH_CHECK_CRON', '61 * * * *'],
    ['HEALTH_REPORT_CRON', '0 25 * * *'],
    ['MAIL_CRON', '* * * 13 *'],
    ['TOKEN_EXPIRY_CRON', '*/0 * * * *'],
    ['DATABASE_POOL_MAX', '0'],
    ['TRUSTED_PROXIES', 'the load balancer'],
  ])('stops on a bad %s with one line naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });
});

describe('TRUSTED_PROXIES', () => {
  it('reads a hop count or a list of addresses/CIDRs; unset means the socket address', () => {
    expect(loadConfig({}).trustedProxies).toBeUndefined();
    expect(loadConfig({ TRUSTED_PROXIES: '1' }).trustedProxies).toBe('1');
    expect(loadConfig({ TRUSTED_PROXIES: '198.51.100.0/24, 127.0.0.1, ::1, fd00::/8' }).trustedProxies).toBe(
      '198.51.100.0/24, 127.0.0.1, ::1, fd00::/8',
    );
  });

  it.each(['300.1.1.1', '198.51.100.0/33', 'abc', '::1/129'])(
    'stops start-up on an entry that is not an address or CIDR (%s)',
    (value) => {
      expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(/^Invalid configuration: TRUSTED_PROXIES /);
    },
  );
});
