import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Config } from '../config';
import type { Logger } from '../http/logger';

export interface MailMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type SendMail = (message: MailMessage) => Promise<void>;

/** Time limits of one SMTP send. */
export interface SmtpTimeouts {
  /** TCP connection. */
  connectMs: number;
  /** The server's greeting. */
  greetingMs: number;
  /** Longest silence while waiting for any reply. */
  idleMs: number;
  /** The whole send, from connecting to the server's last reply; the connection is cut when it is reached. */
  totalMs: number;
}

/**
 * A send ends within 5 minutes, well inside the 15-minute outbox claim (deliver.ts), so no other runner can
 * take a message over while it is still being sent. RFC 5321 lets a relay take up to 10 minutes to accept
 * the data, but the submission server we talk to answers in seconds; a send cut off is retried like any
 * temporary failure. The idle limit alone would not bound a send (a server trickling bytes resets it).
 */
export const SMTP_TIMEOUTS: SmtpTimeouts = { connectMs: 30_000, greetingMs: 30_000, idleMs: 120_000, totalMs: 300_000 };

const fileBuilder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

/** Links in a message body (logged when mail goes to files, so a local install can follow them). */
export const linksIn = (text: string) => text.match(/https?:\/\/[^\s<>"]+/g) ?? [];

type SocketCallback = (err: Error | null, socketOptions?: { connection: net.Socket }) => void;

/** Opens the TCP connection for nodemailer (it does TLS, implicit or STARTTLS, on top) within `connectMs`. */
function openSocket(options: SMTPTransport.Options, connectMs: number, callback: SocketCallback): net.Socket {
  const socket = net.connect({
    host: options.host || 'localhost',
    port: Number(options.port) || (options.secure ? 465 : 587),
  });
  let answered = false;
  const answer: SocketCallback = (err, socketOptions) => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    socket.removeListener('error', answer); // once connected, nodemailer handles the socket's errors
    callback(err, socketOptions);
  };
  const timer = setTimeout(
    () => socket.destroy(Object.assign(new Error('SMTP connection timeout'), { code: 'ETIMEDOUT' })),
    connectMs,
  );
  socket.once('error', answer);
  socket.once('close', () => answer(new Error('SMTP connection closed')));
  socket.once('connect', () => answer(null, { connection: socket }));
  return socket;
}

/**
 * One SMTP send within `limits`. nodemailer's timeouts bound each wait; the total limit is ours: we open the
 * socket for nodemailer (its getSocket hook) so we can destroy it when the time is up.
 */
async function sendWithin(smtpUrl: string, limits: SmtpTimeouts, mail: Mail.Options): Promise<void> {
  let socket: net.Socket | undefined;
  let timeIsUp = false;
  const transportOptions: SMTPTransport.Options = {
    url: smtpUrl,
    connectionTimeout: limits.connectMs,
    greetingTimeout: limits.greetingMs,
    socketTimeout: limits.idleMs,
    getSocket: (options, callback) => {
      if (timeIsUp) return callback(new Error('SMTP send cancelled'), undefined);
      socket = openSocket(options, limits.connectMs, callback);
    },
  };
  const transport = nodemailer.createTransport(transportOptions);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timeIsUp = true;
      socket?.destroy();
      reject(new Error(`SMTP send took longer than ${limits.totalMs / 1000} s; connection closed`));
    }, limits.totalMs);
  });
  try {
    await Promise.race([transport.sendMail(mail), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends through SMTP_URL with nodemailer (within `limits`), or, without SMTP, writes .eml + .txt files into
 * DATA_DIR/mail and logs the links.
 */
export function mailSender(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  logger: Logger,
  limits = SMTP_TIMEOUTS,
): SendMail {
  const { smtpUrl, mailFrom } = config;
  if (smtpUrl) {
    return (m) =>
      sendWithin(smtpUrl, limits, {
        from: mailFrom,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        messageId: `<${m.id}@ops-hub>`,
      });
  }
  const dir = path.resolve(config.dataDir, 'mail');
  return async (m) => {
    const info = await fileBuilder.sendMail({
      from: mailFrom,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
    });
    const base = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${m.id}`);
    await mkdir(dir, { recursive: true });
    await writeFile(`${base}.eml`, info.message as Buffer);
    await writeFile(`${base}.txt`, `To: ${m.to}\nSubject: ${m.subject}\n\n${m.text}\n`);
    logger.info(
      { to: m.to, subject: m.subject, file: `${base}.eml`, links: linksIn(m.text) },
      'mail written to file (SMTP_URL is not set)',
    );
  };
}
