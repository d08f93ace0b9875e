import { Card } from '../../ui/components';
import { Icon } from '../../ui/icons';

const links = [
  { label: 'Create Knowledge Base', href: '/knowledge-base?create=knowledge-base', icon: 'book' },
  { label: 'Create How-To Guide', href: '/knowledge-base?create=how-to-guide', icon: 'file' },
  { label: 'Auto Create KB', href: '/knowledge-base?autocreate=true', icon: 'sparkles' },
  { label: 'Create Build Document', href: '/knowledge-base?create=build-document', icon: 'file' },
  { label: 'Add Server', href: '/infrastructure?create=server', icon: 'server' },
] as const;

/** For those who only read (viewers, auditors): where to read, instead of actions they may not take. */
const readLinks = [
  { label: 'Browse Knowledge Base', href: '/knowledge-base', icon: 'book' },
  { label: 'View Infrastructure', href: '/infrastructure', icon: 'server' },
  { label: 'Ask Ops AI', href: '/ai', icon: 'bot' },
] as const;

function HealthCheckForm() {
  return (
    <form
      method="post"
      action="/dashboard/health-check"
      hx-post="/dashboard/health-check"
      hx-target="#infra-overview"
      hx-swap="outerHTML"
      hx-indicator="#health-check-progress"
      hx-disabled-elt="find button"
    >
      <button type="submit" className="btn dash-actions__full">
        <Icon name="activity" />
        Run Health Check
      </button>
      <p id="health-check-progress" className="htmx-indicator muted small" role="status">
        Checking all servers...
      </p>
    </form>
  );
}

/** Quick Actions: the spec's deep links and a real "Run Health Check" (htmx POST with progress), for those who may write. */
export function QuickActions({ canWrite }: { canWrite: boolean }) {
  return (
    <Card title="Quick Actions">
      <div className="dash-actions">
        {(canWrite ? links : readLinks).map((l) => (
          <a key={l.href} className="btn" href={l.href}>
            <Icon name={l.icon} />
            {l.label}
          </a>
        ))}
        {canWrite && <HealthCheckForm />}
      </div>
    </Card>
  );
}
