import { UNREAD_CAP } from '../inbox';

/** The id of the bell's badge (src/ui/NotificationBell.tsx loads it by this id). */
export const BELL_BADGE_ID = 'notify-badge';

/** The bell's unread count ("99+" from the cap); empty when nothing is unread. `oob`: swapped in beside a panel. */
export function UnreadBadge({ count, oob }: { count: number; oob?: boolean }) {
  const shown = count >= UNREAD_CAP ? `${UNREAD_CAP - 1}+` : String(count);
  return (
    <span id={BELL_BADGE_ID} className={count ? 'notify__badge' : undefined} hx-swap-oob={oob ? 'true' : undefined}>
      {count > 0 && (
        <>
          {shown}
          <span className="visually-hidden"> unread</span>
        </>
      )}
    </span>
  );
}
