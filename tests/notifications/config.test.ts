import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

const keys = webpush.generateVAPIDKeys();
const base = { LOG_LEVEL: 'silent' };

describe('VAPID_* configuration', () => {
  it('is off without keys', () => {
    expect(loadConfig(base).push).toBeUndefined();
    expect(
      loadConfig({ ...base, VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '', VAPID_SUBJECT: '' }).push,
    ).toBeUndefined();
  });

  it('turns Web Push on with a key pair and a subject', () => {
    const config = loadConfig({
      ...base,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.com',
    });
    expect(config.push).toEqual({
      publicKey: keys.publicKey,
      privateKey: keys.privateKey,
      subject: 'mailto:ops@example.com',
    });
  });

  it('stops start-up with one line naming the variable for half a group or a bad value', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { VAPID_PUBLIC_KEY: keys.publicKey },
        /^Invalid configuration: VAPID_PRIVATE_KEY is required with VAPID_PUBLIC_KEY and VAPID_SUBJECT$/,
      ],
      [
        { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey },
        /^Invalid configuration: VAPID_SUBJECT is required/,
      ],
      [
        { VAPID_PUBLIC_KEY: 'not a key', VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:a@b.c' },
        /^Invalid configuration: VAPID_PUBLIC_KEY must be base64url/,
      ],
      [
        { VAPID_PUBLIC_KEY: keys.privateKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:a@b.c' },
        /^Invalid configuration: VAPID_PUBLIC_KEY must be an uncompressed P-256 public key/,
      ],
      [
        {
          VAPID_PUBLIC_KEY: keys.publicKey,
          VAPID_PRIVATE_KEY: keys.privateKey,
          VAPID_SUBJECT: 'http://ops.example.com',
        },
        /^Invalid configuration: VAPID_SUBJECT must be a mailto: address or an https:\/\/ URL$/,
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, ...env })).toThrow(message);
    }
  });
});
