import { Island } from '../../ui/Island';
import type { Server } from '../schemas';

export interface InfrastructurePageProps {
  servers: Server[];
  docCounts: Record<string, number>;
  filters: { q: string; environment: string; status: string };
  highlightId: string | null;
  openCreate: boolean;
  page: number;
}

/** /infrastructure: the server table island, rendered on the server first (filters work as a GET form). */
export function InfrastructurePage(props: InfrastructurePageProps) {
  return (
    <div className="infrastructure">
      <Island name="ServerTable" props={{ ...props }} />
    </div>
  );
}
