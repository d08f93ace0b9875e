import { Banner } from '../../ui/components';
import { Island } from '../../ui/Island';
import type { Server } from '../schemas';

export interface InfrastructurePageProps {
  /** The rows of the page shown first (the island loads the whole list after hydration). */
  pageRows: Server[];
  total: number;
  pageIndex: number;
  docCounts: Record<string, number>;
  filters: { q: string; environment: string; status: string };
  highlightId: string | null;
  /** A ?server= link to a server that is not there: the banner, and the address without it. */
  missing: { text: string; cleanUrl: string } | null;
  openCreate: boolean;
  /** The user's timezone, for the times in the table. */
  timeZone: string;
  /** May the reader add, edit, delete and check servers? Viewers and auditors see no such buttons. */
  canWrite: boolean;
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
