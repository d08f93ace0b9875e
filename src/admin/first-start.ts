import type { Config } from '../config';
import type { Db } from '../db/client';
import { users } from '../db/schema';

/**
 * What to tell whoever starts Ops Hub on an empty database (no account yet): the first account to register
 * becomes the admin, where to register, and, without SMTP, where its verification link appears. Null once
 * an account exists.
 */
export async function firstStartNotice(db: Db, config: Pick<Config, 'appUrl' | 'smtpUrl'>): Promise<string | null> {
  const [anyone] = await db.select({ id: users.id }).from(users).limit(1);
  if (anyone) return null;
  const mail = config.smtpUrl ? '' : ' SMTP_URL is not set, so its verification link will be logged here.';
  return `No accounts yet: the first account to register becomes the admin. Open ${config.appUrl}/register to create it.${mail}`;
}
