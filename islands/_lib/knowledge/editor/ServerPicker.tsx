import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { type ServerSummary, summaryOf } from '../../../../src/runbooks/shared';
import { statusColour } from '../../../../src/ui/shared';
import { api } from '../../api';

/** How long typing rests before the picker searches. */
const SEARCH_DELAY_MS = 250;
/** How many matches one search asks for (some may be chosen already). */
const SEARCH_LIMIT = 20;
/** How many matches the list shows. */
const MAX_MATCHES = 8;

/** A server's status as a badge with its dot (the server table's look). */
export function StatusBadge({ status }: { status: ServerSummary['status'] }) {
  const colour = statusColour(status);
  return (
    <span className={`badge badge--${colour}`}>
      <span className={`status-dot status-dot--${colour === 'neutral' ? 'grey' : colour}`} /> {status}
    </span>
  );
}

/** Servers matching the search (name, IP, hostname …) that are not chosen yet. */
function useMatches(query: string, chosen: ServerSummary[]) {
  const [matches, setMatches] = useState<ServerSummary[]>([]);
  useEffect(() => {
    const q = query.trim();
    if (!q) return setMatches([]);
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const found = await api<ServerSummary[]>(
          'GET',
          `/api/servers?q=${encodeURIComponent(q)}&limit=${SEARCH_LIMIT}`,
        );
        if (live) setMatches(found.map(summaryOf));
      } catch {
        if (live) setMatches([]);
      }
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query]);
  const taken = new Set(chosen.map((s) => s.id));
  return matches.filter((s) => !taken.has(s.id)).slice(0, MAX_MATCHES);
}

interface Props {
  servers: ServerSummary[];
  onChange: (servers: ServerSummary[]) => void;
}

/**
 * The editor's "Servers" field: a search box (name or IP) whose matches are picked with the mouse or the arrow keys
 * and Enter; the chosen servers are chips with their status and a remove button.
 */
export function ServerPicker({ servers, onChange }: Props) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [focused, setFocused] = useState(false);
  const matches = useMatches(query, servers);
  const open = focused && matches.length > 0;

  const pick = (server: ServerSummary) => {
    onChange([...servers, server]);
    setQuery('');
    setActive(0);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (matches.length ? (a + step + matches.length) % matches.length : 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (open) pick(matches[Math.min(active, matches.length - 1)]);
    } else if (e.key === 'Escape' && query) {
      e.preventDefault();
      setQuery('');
    }
  };

  return (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-servers`}>
        Servers
      </label>
      <div className="server-picker">
        <input
          id={`${id}-servers`}
          className="input"
          role="combobox"
          aria-expanded={open}
          aria-controls={`${id}-matches`}
          aria-autocomplete="list"
          aria-activedescendant={open ? `${id}-match-${Math.min(active, matches.length - 1)}` : undefined}
          placeholder="Search by name or IP"
          autoComplete="off"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
        {open && (
          <div className="search-results" id={`${id}-matches`} role="listbox" aria-label="Matching servers">
            {matches.map((s, i) => (
              <button
                type="button"
                key={s.id}
                id={`${id}-match-${i}`}
                role="option"
                tabIndex={-1}
                className="search-results__item"
                aria-selected={i === active}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(s)}
              >
                {s.name} <span className="search-results__meta">{s.ipAddress ?? s.hostname ?? ''}</span>
              </button>
            ))}
          </div>
        )}
      </div>
      {servers.length > 0 ? (
        <ul className="tag-list" aria-label="Linked servers">
          {servers.map((s) => (
            <li key={s.id} className="tag server-chip">
              {s.name} <StatusBadge status={s.status} />
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove server ${s.name}`}
                onClick={() => onChange(servers.filter((x) => x.id !== s.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">No servers linked.</p>
      )}
    </div>
  );
}
