import { Badge } from '../../ui/components';
import { relativeTime } from '../../ui/shared';
import { Icon } from '../../ui/icons';
import type { Item } from '../schemas';
import { ITEM_TYPES, kbTypeOf } from '../shared';
import { DELETE_DIALOG_ID } from './DeleteDialog';

/** Type icon and label of a knowledge item. */
export function TypeLabel({ item }: { item: Pick<Item, 'templateType'> }) {
  const type = ITEM_TYPES[kbTypeOf(item.templateType)];
  return (
    <span className="kb-type">
      <Icon name={type.icon} />
      {type.label}
    </span>
  );
}

/** Up to 3 tags, then "+N" for the rest (spec §9). */
export function TagList({ tags }: { tags: string[] }) {
  if (!tags.length) return null;
  return (
    <ul className="tag-list" aria-label="Tags">
      {tags.slice(0, 3).map((t) => (
        <li key={t}>
          <Badge outline>{t}</Badge>
        </li>
      ))}
      {tags.length > 3 && (
        <li>
          <Badge outline>{`+${tags.length - 3}`}</Badge>
        </li>
      )}
    </ul>
  );
}

/** "v3 · 2 days ago". */
export function VersionAge({ item, now }: { item: Pick<Item, 'version' | 'updatedAt'>; now: Date }) {
  return (
    <span className="muted small">
      {`v${item.version} · `}
      <time dateTime={item.updatedAt}>{relativeTime(item.updatedAt, now)}</time>
    </span>
  );
}

/** The delete control: opens the confirmation dialog (loaded by htmx); without JS a confirmation page. */
export function DeleteButton({ href, title }: { href: string; title: string }) {
  return (
    <a
      className="icon-button"
      href={href}
      hx-get={href}
      hx-target={`#${DELETE_DIALOG_ID}`}
      data-open-dialog={DELETE_DIALOG_ID}
      aria-label={`Delete ${title}`}
      title="Delete"
    >
      <Icon name="trash" />
    </a>
  );
}
