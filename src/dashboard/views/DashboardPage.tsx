import { Banner } from '../../ui/components';
import type { DashboardStats, RecentArticle } from '../service';
import { InfraOverview, type InfraOverviewProps } from './InfraOverview';
import { DueForReview, type DueForReviewProps } from './DueForReview';
import { QuickActions } from './QuickActions';
import { RecentKnowledge } from './RecentKnowledge';
import { StatCards } from './StatCards';

export interface HealthSummary {
  checked: number;
  online: number;
  warning: number;
  offline: number;
}

/** "Checked 12 servers: 10 online, 1 warning, 1 offline." */
export const healthSummaryText = (r: HealthSummary) =>
  `Checked ${r.checked} server${r.checked === 1 ? '' : 's'}: ${r.online} online, ${r.warning} warning, ${r.offline} offline.`;

/** The dashboard: stat cards, recent knowledge, quick actions, infrastructure overview. No React in the browser. */
export function DashboardPage(props: {
  stats: DashboardStats;
  articles: RecentArticle[];
  infra: InfraOverviewProps;
  now: Date;
  health?: HealthSummary;
  /** May the reader write (can content.write)? Decides the quick actions. */
  canWrite: boolean;
  /** The Due for review panel's items (issue 22). */
  review?: DueForReviewProps;
}) {
  return (
    <div className="stack dash">
      {props.health && <Banner variant="success">{`Health check complete. ${healthSummaryText(props.health)}`}</Banner>}
      <StatCards stats={props.stats} />
      <div className="grid grid--3">
        <RecentKnowledge articles={props.articles} now={props.now} />
        <QuickActions canWrite={props.canWrite} />
      </div>
      {props.review && <DueForReview {...props.review} />}
      <InfraOverview {...props.infra} />
    </div>
  );
}
