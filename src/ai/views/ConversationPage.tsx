import { renderMarkdown } from '../../markdown/render';
import { Badge, Card } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import type { ConversationView } from '../conversations';
import { DeleteConversationDialog, deleteDialogId } from './RecentConversations';

export interface ConversationPageProps {
  conversation: ConversationView;
  timeZone: string;
  /** The absolute link to share (APP_URL + /ai/c/{id}). */
  shareUrl: string;
  /** The clean address after ?done= (the toast shows once). */
  replaceUrl?: string;
}

/** The owner's actions: Continue in the chat, Share link / Stop sharing (plain forms), Delete (confirmed). */
function OwnerActions({ conversation: c }: { conversation: ConversationView }) {
  return (
    <>
      <a className="btn btn--primary btn--sm" href={`/ai?continue=${c.id}`}>
        Continue
      </a>
      <form method="post" action={`${c.link}/share`}>
        <input type="hidden" name="shared" value={c.shared ? 'false' : 'true'} />
        <button type="submit" className="btn btn--secondary btn--sm">
          {c.shared ? 'Stop sharing' : 'Share link'}
        </button>
      </form>
      <button
        type="button"
        className="btn btn--danger btn--sm"
        data-open-dialog={deleteDialogId(c.id)}
        data-js-only
        hidden
      >
        Delete
      </button>
    </>
  );
}

/** /ai/c/{id}: one conversation (its title is the page's), read-only and server-rendered (no JavaScript needed). */
export function ConversationPage({ conversation: c, timeZone, shareUrl, replaceUrl }: ConversationPageProps) {
  const subtitle = c.mine
    ? `Started ${formatDateTime(c.createdAt, timeZone)}`
    : `Shared by ${c.ownerName} · started ${formatDateTime(c.createdAt, timeZone)}`;
  return (
    <div className="stack ai-conversation">
      {replaceUrl && <span hidden data-replace-url={replaceUrl} />}
      <Card
        title={<>Conversation {c.shared && <Badge colour="blue">Shared</Badge>}</>}
        subtitle={subtitle}
        actions={c.mine ? <OwnerActions conversation={c} /> : undefined}
      >
        {c.mine && c.shared && (
          <div className="field ai-conversation__share">
            <label className="field__label" htmlFor="share-link">
              Link to share
            </label>
            <input id="share-link" className="input" readOnly value={shareUrl} />
            <p className="field__hint">
              Anyone signed in can open it while it is shared, if they may read every source its answers cite.
            </p>
          </div>
        )}
        <ol className="ai-conversation__messages" aria-label="Conversation">
          {c.messages.map((m) => (
            <li key={m.interactionId} className="ai-conversation__exchange">
              <div className="bubble bubble--user">
                {m.query}
                <div className="bubble__meta">
                  <time dateTime={m.createdAt}>{formatDateTime(m.createdAt, timeZone)}</time>
                </div>
              </div>
              <div className="bubble bubble--assistant">
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown sanitises it (tables and links, no script) */}
                <div className="prose" dangerouslySetInnerHTML={{ __html: renderMarkdown(m.response) }} />
              </div>
            </li>
          ))}
        </ol>
      </Card>
      {c.mine && <DeleteConversationDialog conversation={c} />}
    </div>
  );
}
