import type { KbType, ViewMode } from '../schemas';

/** The filters of a list screen: every state is a URL. */
export interface ListState {
  q?: string;
  type?: KbType;
  category?: string;
  view?: ViewMode;
  /** Only items that need review (date passed or a linked server changed), or only those flagged by a server change. */
  review?: 'overdue' | 'flagged';
  limit?: number;
}

/** `/knowledge-base?q=…&view=…` with only the parameters that are set. */
export function listUrl(
  path: string,
  state: ListState,
  extra: Record<string, string | number | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({
    q: state.q,
    type: state.type,
    category: state.category,
    view: state.view,
    review: state.review,
    limit: state.limit,
    ...extra,
  })) {
    if (v !== undefined && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** True when a search or filter narrows the list (the empty state says so). */
export const isFiltering = (s: ListState) => !!(s.q || s.type || s.category || s.review);

/**
 * The path and query of `candidate` when it names the list at `path` (a relative URL, or an absolute http(s) one
 * whose origin does not matter: only our own path is kept), else undefined. Used for every "back to the list" link.
 */
export function listUrlIn(path: string, candidate: string | undefined | null): string | undefined {
  if (!candidate) return undefined;
  try {
    const url = new URL(candidate, 'http://app.invalid');
    if (url.origin !== 'http://app.invalid' && !candidate.startsWith('http')) return undefined;
    return url.pathname === path ? url.pathname + url.search : undefined;
  } catch {
    return undefined;
  }
}
