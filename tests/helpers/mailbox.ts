import { SMTPServer } from 'smtp-server';
import { freePort } from './browser';

/** A real SMTP server on loopback that keeps every message it receives: the mailbox a test reads. */
export interface Mailbox {
  url: string;
  messages: { to: string[]; raw: string }[];
  close: () => Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: Mailbox['messages'] = [];
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
