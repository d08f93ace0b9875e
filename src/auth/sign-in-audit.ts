import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';

/**
 * A refused sign-in in the audit trail: no actor (nobody proved who they are), the account aimed at when it
 * exists, the address typed and the client's address, and why (`invalid_credentials`, `account_pending` …).
 */
export function recordSignInFailure(
  db: Db,
  attempt: {
    userId: string | null;
    email: string;
    method: 'password' | 'external' | 'two_factor';
    ip: string;
    reason: string;
  },
) {
  return recordAudit(db, {
    actorId: null,
    action: 'user.sign_in_failed',
    entityType: 'user',
    entityId: attempt.userId,
    details: { email: attempt.email, method: attempt.method, ip: attempt.ip, reason: attempt.reason },
  });
}
