import { Badge, Card, EmptyState } from '../../ui/components';
import { ConfirmDialog } from '../../ui/Dialog';
import { Icon } from '../../ui/icons';
import { formatDateTime } from '../../ui/shared';
import type { ConversationSummary } from '../conversations';

/** The id of a conversation's delete confirmation. */
export const deleteDialogId = (id: string) => `delete-conversation-${id}`;

/** Asks before a conversation goes: a plain form POST (303 back to /ai with a toast). */
export function DeleteConversationDialog({ conversation: c }: { conversation: ConversationSummary }) {
  return (
    <ConfirmDialog
      id={deleteDialogId(c.id)}
      title="Delete Conversation"
      question={`Are you sure you want to delete "${c.title}"? This action cannot be undone.`}
      action={`${c.link}/delete`}
      form={{ 'hx-post': undefined }}
    />
  );
}

/** "Recent conversations" on /ai (issue 26): the user's own, newest first, each opened at /ai/c/{id} or deleted. */
export function RecentConversations({
  conversations,
  timeZone,
}: {
  conversations: ConversationSummary[];
  timeZone: string;
}) {
  return (
    <Card
      title="Recent conversations"
      subtitle="Saved on the server: open one to read, continue or share it."
      className="ai-recent"
    >
      {conversations.length === 0 ? (
        <EmptyState
          icon="message"
          title="No conversations yet"
          text="Ask Ops AI a question: each conversation is saved here."
        />
      ) : (
        <ul className="dash-recent" aria-label="Recent conversations">
          {conversations.map((c) => (
            <li key={c.id} className="ai-recent__item">
              <a className="dash-recent__row" href={c.link}>
                <span className="dash-recent__text">
                  <span className="dash-recent__title">{c.title}</span>
                  <time className="muted small" dateTime={c.updatedAt}>
                    {formatDateTime(c.updatedAt, timeZone)}
                  </time>
                </span>
                {c.shared && <Badge colour="blue">Shared</Badge>}
              </a>
              {/* The confirmation is a dialog: without JavaScript the button stays hidden (no dead button). */}
              <button
                type="button"
                className="icon-button"
                data-open-dialog={deleteDialogId(c.id)}
                data-js-only
                hidden
                aria-label={`Delete conversation ${c.title}`}
                title="Delete conversation"
              >
                <Icon name="trash" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {conversations.map((c) => (
        <DeleteConversationDialog key={c.id} conversation={c} />
      ))}
    </Card>
  );
}
