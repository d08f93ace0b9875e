import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { UserRow } from './accounts';
import { signInExternal } from './external';
import { finishAuthorization, type ProviderSettings } from './oidc';
import type { SessionStage } from './sessions';
import { recordSignInFailure } from './sign-in-audit';
import { openSignInSession } from './two-factor-signin';

/** How an external sign-in ended: a session, the account state that keeps it out, or a failure. */
export type ExternalSignIn =
  | { outcome: 'signed_in'; token: string; stage: SessionStage }
  | { outcome: 'not_active'; status: UserRow['accountStatus'] }
  | { outcome: 'failed'; error: unknown };

/**
 * Finishes a Google/OIDC sign-in: checks the provider's answer (state, nonce, PKCE, ID token), finds, links or
 * creates the account, and opens a session when the account is active (at the two-factor stage it owes, if any).
 */
export async function completeExternalSignIn(
  db: Db,
  appUrl: string,
  provider: {
    settings: ProviderSettings;
    callbackUrl: URL;
    checks: { verifier: string; state: string; nonce: string };
  },
  client: { ip: string; userAgent?: string },
): Promise<ExternalSignIn> {
  let user: UserRow;
  try {
    const identity = await finishAuthorization(provider.settings, provider.callbackUrl, provider.checks);
    user = await signInExternal(db, appUrl, identity);
  } catch (error) {
    return { outcome: 'failed', error };
  }
  if (user.accountStatus !== 'active') {
    const attempt = { userId: user.id, email: user.email, method: 'external' as const, ip: client.ip };
    await recordSignInFailure(db, { ...attempt, reason: `account_${user.accountStatus}` });
    return { outcome: 'not_active', status: user.accountStatus };
  }
  const { token, stage } = await openSignInSession(db, user, 'external', client);
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  return { outcome: 'signed_in', token, stage };
}
