/** Follow-up questions: "it", "that server", "those", "which of them" refer to the servers of the previous answer. */

interface HistoryMessage {
  type?: 'user' | 'assistant';
  role?: 'user' | 'assistant';
  content: string;
}

const ONE =
  /\b(it|its|it's|that server|this server|that one|this one|that box|that machine|this machine|the same server)\b/i;
const MANY = /\b(those|these|them|they|ones|each of them|all of them)\b/i;

/** Does the question point back at one server, at several, or at nothing? */
export function refersTo(query: string): 'one' | 'many' | undefined {
  if (MANY.test(query)) return 'many';
  if (ONE.test(query)) return 'one';
  return undefined;
}

const labelOf = (md: string) => md.replace(/\\(.)/g, '$1');

/** Server names linked in a markdown answer, in order, once each. */
export function serversLinkedIn(answer: string): string[] {
  const out: string[] = [];
  for (const [, label] of answer.matchAll(/\[((?:\\.|[^\]\\])*)\]\(\/infrastructure\?server=[0-9a-f-]{36}\)/g)) {
    const name = labelOf(label);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * The servers the conversation was last about: those the latest answer linked (its subject first when it was about
 * one server), else a server named in the latest question. Empty when there is no earlier turn.
 */
export function serversInContext(history: HistoryMessage[], known: string[]): string[] {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    const role = m.role ?? m.type;
    if (role === 'assistant') {
      const linked = serversLinkedIn(m.content).filter((n) => known.includes(n));
      if (linked.length) return linked;
    } else if (role === 'user') {
      const named = known.filter((n) =>
        new RegExp(`(^|[^\\w-])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`, 'i').test(m.content),
      );
      if (named.length) return named;
    }
  }
  return [];
}
