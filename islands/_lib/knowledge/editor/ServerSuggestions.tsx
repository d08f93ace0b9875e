import { useEffect, useState } from 'react';
import { type ServerSummary, withoutInlineImages } from '../../../../src/runbooks/shared';
import { api } from '../../api';

/** How long typing or pasting rests before the text is read for server names. */
export const MENTIONS_DELAY_MS = 1500;

/** The servers the text names that are not linked, asked once typing rests (stale answers dropped). */
function useMentioned(content: string, linked: ServerSummary[]) {
  const [mentioned, setMentioned] = useState<ServerSummary[]>([]);
  const exclude = linked.map((s) => s.id);
  const excludeKey = exclude.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: excludeKey stands for the linked ids
  useEffect(() => {
    if (!content.trim()) return setMentioned([]);
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const found = await api<ServerSummary[]>('POST', '/api/servers/mentions', {
          text: withoutInlineImages(content),
          exclude,
        });
        if (live) setMentioned(found);
      } catch {
        // Suggestions are a help: a failed read leaves the strip as it was.
      }
    }, MENTIONS_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [content, excludeKey]);
  const taken = new Set(exclude);
  return mentioned.filter((s) => !taken.has(s.id));
}

interface Props {
  content: string;
  linked: ServerSummary[];
  onLink: (servers: ServerSummary[]) => void;
}

/** "Mentioned servers: web1, db2 — Link / Link all" under the content: servers the text names, not linked yet. */
export function ServerSuggestions({ content, linked, onLink }: Props) {
  const [dismissed, setDismissed] = useState<Set<string>>(() => new Set());
  const shown = useMentioned(content, linked).filter((s) => !dismissed.has(s.id));
  if (!shown.length) return null;
  return (
    <section className="banner banner--info row server-suggestions" aria-label="Mentioned servers">
      <span>Mentioned servers:</span>
      <ul className="tag-list">
        {shown.map((s) => (
          <li key={s.id} className="tag">
            {s.name}
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              aria-label={`Link ${s.name}`}
              onClick={() => onLink([s])}
            >
              Link
            </button>
          </li>
        ))}
      </ul>
      <span className="spacer" />
      <button type="button" className="btn btn--secondary btn--sm" onClick={() => onLink(shown)}>
        Link all
      </button>
      <button
        type="button"
        className="btn btn--ghost btn--sm"
        aria-label="Dismiss mentioned servers"
        onClick={() => setDismissed(new Set([...dismissed, ...shown.map((s) => s.id)]))}
      >
        Dismiss
      </button>
    </section>
  );
}
