import { expireAccountsAndTokens } from '../src/auth/expiry';
import { defineJob } from './define-job';

/** Clears expired verification and reset tokens and sessions; removes accounts never verified in time. */
export const tokenExpiryJob = defineJob({
  name: 'token-expiry',
  title: 'Token and account expiry',
  schedule: (config) => config.schedules.tokenExpiry,
  async run({ db, config }) {
    const r = await expireAccountsAndTokens(db, { unverifiedAccountDays: config.unverifiedAccountDays });
    return `Cleared ${r.verificationTokens} verification and ${r.resetTokens} reset tokens, deleted ${r.sessions} sessions and ${r.unverifiedAccounts} unverified accounts.`;
  },
});
