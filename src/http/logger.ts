import pino from 'pino';

export type Logger = pino.Logger;

/** json: one JSON object a line (for log collectors); pretty: one readable line an entry (for a person). */
export type LogFormat = 'json' | 'pretty';

interface Output {
  write(line: string): unknown;
  isTTY?: boolean;
}

/** LOG_FORMAT when set; otherwise pretty on a terminal and JSON everywhere else (production). */
export const logFormatFor = (setting: LogFormat | undefined, out: Output): LogFormat =>
  setting ?? (out.isTTY ? 'pretty' : 'json');

/** pino logger with secrets, tokens and cookies redacted, written as `format` to `out` (stdout). */
export function createLogger(level: string, opts: { format?: LogFormat; out?: Output } = {}): Logger {
  const out = opts.out ?? process.stdout;
  const format = logFormatFor(opts.format, out);
  const options: pino.LoggerOptions = {
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
  };
  if (format === 'json') return opts.out ? pino(options, opts.out) : pino(options);
  const colour = Boolean(out.isTTY) && !process.env.NO_COLOR;
  return pino(options, { write: (json: string) => out.write(prettyLine(json, colour)) });
}

const LEVELS: Record<number, [label: string, ansi: string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '90'],
  30: ['INFO', '32'],
  40: ['WARN', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '31'],
};
/** Fields every entry has, shown in the line's own layout or not at all. */
const LAYOUT_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

const fieldValue = (v: unknown) => (typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v));

/**
 * One pino JSON line as a readable one: "12:14:41 INFO  Ops Hub listening on … port=3000 database=pglite";
 * an error's stack follows, indented. A line that is not JSON passes through.
 */
export function prettyLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const [label, ansi] = LEVELS[entry.level as number] ?? [String(entry.level), '0'];
  const level = colour ? `\x1b[${ansi}m${label.padEnd(5)}\x1b[0m` : label.padEnd(5);
  const time = new Date(entry.time as number).toTimeString().slice(0, 8);
  const fields = Object.entries(entry)
    .filter(([key]) => !LAYOUT_FIELDS.has(key))
    .map(([key, value]) => `${key}=${fieldValue(value)}`);
  const line = [time, level, entry.msg, ...fields].filter((part) => part !== undefined && part !== '').join(' ');
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const detail = err ? `\n${(err.stack ?? err.message ?? '').replace(/^/gm, '    ')}` : '';
  return `${line}${detail}\n`;
}
