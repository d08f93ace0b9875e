import pino from 'pino';

export type Logger = pino.Logger;

/** pino logger with secrets, tokens and cookies redacted. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'headers.cookie',
        'headers.authorization',
        '*.apiKey',
        '*.clientSecret',
        'smtpUrl',
      ],
      censor: '[redacted]',
    },
  });
}
