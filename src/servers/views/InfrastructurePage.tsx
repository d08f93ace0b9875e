import { Banner } from '../../ui/components';
import { Island } from '../../ui/Island';
import type { ListedServer } from '../shared/list';

export interface InfrastructurePageProps {
  /** The rows of the page shown (the island asks the API for other pages, searches and sorts). */
  pageRows: ListedServer[];
  total: number;
  pageIndex: number;
  docCounts: Record<string, number>;
  filters: { q: string; environment: string; status: string };
  /** ?sort=: a column id, "-" first for descending; "server" (natural name order) by default. */
  sort: string;
  highlightId: string | null;
  /** A ?server= link to a server that is not there: the banner, and the address without it. */
  missing: { text: string; cleanUrl: string } | null;
  openCreate: boolean;
  /** The user's timezone, for the times in the table. */
  timeZone: string;
  /** May the reader add, edit, delete and check servers? Viewers and auditors see no such buttons. */
  canWrite: boolean;
  /** The icon sprite's URL, for the rows' icons. */
  iconSprite: string;
}

/** /infrastructure: the server table island, rendered on the server first (filters work as a GET form). */
export function InfrastructurePage({ missing, ...props }: InfrastructurePageProps) {
  return (
    <div className="infrastructure">
      {missing && <Banner variant="error">{missing.text}</Banner>}
      {/* The address loses the ?server= that named nothing (src/client/shell.ts replaces it). */}
      {missing && <div hidden data-replace-url={missing.cleanUrl} />}
      <Island name="ServerTable" props={{ ...props }} />
    </div>
  );
}
