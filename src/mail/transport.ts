import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
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

const smtpTransports = new Map<string, Transporter>();
const fileBuilder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

/** Links in a message body (logged when mail goes to files, so a local install can follow them). */
export const linksIn = (text: string) => text.match(/https?:\/\/[^\s<>"]+/g) ?? [];

/** Sends through SMTP_URL with nodemailer, or, without SMTP, writes .eml + .txt files into DATA_DIR/mail and logs the links. */
export function mailSender(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, logger: Logger): SendMail {
  const { smtpUrl, mailFrom } = config;
  if (smtpUrl) {
    let transport = smtpTransports.get(smtpUrl);
    if (!transport) {
      transport = nodemailer.createTransport(smtpUrl);
      smtpTransports.set(smtpUrl, transport);
    }
    const smtp = transport;
    return async (m) => {
      await smtp.sendMail({ from: mailFrom, to: m.to, subject: m.subject, text: m.text, html: m.html, messageId: `<${m.id}@ops-hub>` });
    };
  }
  const dir = path.resolve(config.dataDir, 'mail');
  return async (m) => {
    const info = await fileBuilder.sendMail({ from: mailFrom, to: m.to, subject: m.subject, text: m.text, html: m.html });
    const base = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${m.id}`);
    await mkdir(dir, { recursive: true });
    await writeFile(`${base}.eml`, info.message as Buffer);
    await writeFile(`${base}.txt`, `To: ${m.to}\nSubject: ${m.subject}\n\n${m.text}\n`);
    logger.info({ to: m.to, subject: m.subject, file: `${base}.eml`, links: linksIn(m.text) }, 'mail written to file (SMTP_URL is not set)');
  };
}
