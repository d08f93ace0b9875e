import { Island } from '../../ui/Island';
import type { ConversationSummary } from '../conversations';
import { RecentConversations } from './RecentConversations';

/** A question and its answer as the chat shows them (OpsChat's ChatExchange). */
export type Exchange = {
  query: string;
  response: string;
  suggestedActions: string[];
  at: string;
};

export interface AiPageProps {
  /** Exchanges to show in the chat: a server-answered one (the form posted without JS), or a continued conversation. */
  exchanges?: Exchange[];
  /** The conversation they belong to (follow-ups continue it). */
  conversationId?: string | null;
  recent: ConversationSummary[];
  timeZone: string;
  /** The clean address after a one-time parameter (?continue=, ?done=). */
  replaceUrl?: string;
}

/** /ai: the Ops AI chat island, full page, and the user's recent conversations beside it (below on narrow screens). */
export function AiPage({ exchanges = [], conversationId = null, recent, timeZone, replaceUrl }: AiPageProps) {
  return (
    <div className="ai-page">
      {replaceUrl && <span hidden data-replace-url={replaceUrl} />}
      <Island
        name="OpsChat"
        props={{ mode: 'page', now: exchanges[0]?.at ?? new Date().toISOString(), exchanges, conversationId }}
      />
      <RecentConversations conversations={recent} timeZone={timeZone} />
    </div>
  );
}
