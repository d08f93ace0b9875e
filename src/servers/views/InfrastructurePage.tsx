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
  openCreate: boolean;
  /** The user's timezone, for the times in the table. */
  timeZone: string;
}

/** /infrastructure: the server table island, rendered on the server first (filters work as a GET form). */
export function InfrastructurePage(props: InfrastructurePageProps) {
  return (
    <div className="infrastructure">
      <Island name="ServerTable" props={{ ...props }} />
    </div>
  );
}
