import type { Logger } from '../http/logger';
import { deliverDueMail, type MailDeps } from './deliver';

const running = new WeakMap<object, { again: boolean }>();

/**
 * Starts delivery now, in the background (the caller does not wait; errors are logged).
 * One run per database at a time: a kick during a run makes it run once more.
 */
export function deliverMailSoon(deps: MailDeps & { logger: Logger }): void {
  const state = running.get(deps.db);
  if (state) {
    state.again = true;
    return;
  }
  const mine = { again: false };
  running.set(deps.db, mine);
  const loop = async () => {
    try {
      do {
        mine.again = false;
        await deliverDueMail(deps);
      } while (mine.again);
    } catch (err) {
      deps.logger.error({ err }, 'background mail delivery failed');
    } finally {
      running.delete(deps.db);
    }
  };
  setImmediate(() => void loop());
}
