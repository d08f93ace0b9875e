import { SPACES } from '../../knowledge/shared';
import { Card, EmptyState } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import type { PackItem } from '../pack';

export interface OfflinePageProps {
  items: PackItem[];
  /** The teams whose servers' runbooks are kept without a choice (as the servers spell them). */
  teams: string[];
  timeZone: string;
}

/** The address the service worker saves an item's page under (its read page without the slug). */
export const pageKey = (item: Pick<PackItem, 'space' | 'id'>) => `${SPACES[item.space].path}/${item.id}`;

/** Remove from the pack (a plain form back to /offline). */
function RemoveButton({ item }: { item: PackItem }) {
  return (
    <form method="post" action={`${pageKey(item)}/offline`}>
      <input type="hidden" name="keep" value="off" />
      <input type="hidden" name="back" value="offline" />
      <button type="submit" className="btn btn--secondary btn--sm">
        Remove<span className="visually-hidden">{` ${item.title} from the offline pack`}</span>
      </button>
    </form>
  );
}

function Entry({ item, timeZone }: { item: PackItem; timeZone: string }) {
  return (
    <li className="offline-list__item" data-offline-item={pageKey(item)}>
      <div className="offline-list__main">
        <a href={item.url}>{item.title}</a>
        <span className="small muted">
          {SPACES[item.space].noun} · updated{' '}
          <time dateTime={item.updatedAt}>{formatDateTime(item.updatedAt, timeZone)}</time>
          {item.servers.length > 0 && ` · your team's ${item.servers.length === 1 ? 'server' : 'servers'} `}
          {item.servers.join(', ')}
        </span>
        {/* Filled in by the service worker on the copy it shows offline: when this browser saved the page. */}
        <span className="small offline-list__saved" data-offline-saved={pageKey(item)} />
      </div>
      {item.kept && <RemoveButton item={item} />}
    </li>
  );
}

/**
 * /offline: what this user keeps offline (their choices and their team's runbooks). Online the server renders it;
 * offline the service worker shows the copy it saved with the pack, each entry marked with when its page was saved.
 */
export function OfflinePage({ items, teams, timeZone }: OfflinePageProps) {
  const chosen = items.filter((i) => i.kept);
  const team = items.filter((i) => !i.kept);
  return (
    <div className="stack offline-page">
      <p className="muted">
        These pages are saved in this browser so you can read them without a connection, or when the server cannot be
        reached. The pack is refreshed in the background while you are online; signing out clears it, and so does two
        weeks without a refresh. Offline, changes cannot be saved.
      </p>
      <Card title="Kept by you" subtitle='Use "Keep offline" on a knowledge item or document to add it.'>
        {chosen.length ? (
          <ul className="offline-list">
            {chosen.map((item) => (
              <Entry key={item.id} item={item} timeZone={timeZone} />
            ))}
          </ul>
        ) : (
          <EmptyState icon="file" title="Nothing kept yet" />
        )}
      </Card>
      <Card
        title="Your team's runbooks"
        subtitle={
          teams.length
            ? `Items linked to servers owned by ${teams.join(', ')}.`
            : "Your team is the department of your entry in the team directory: ask an admin to set it to keep the runbooks of your team's servers."
        }
      >
        {team.length ? (
          <ul className="offline-list">
            {team.map((item) => (
              <Entry key={item.id} item={item} timeZone={timeZone} />
            ))}
          </ul>
        ) : (
          <EmptyState icon="server" title="No runbooks linked to your team's servers" />
        )}
      </Card>
    </div>
  );
}
