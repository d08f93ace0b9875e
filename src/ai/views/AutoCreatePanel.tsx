import { Badge } from '../../ui/components';
import { Icon } from '../../ui/icons';

/** The Auto Create KB panel on /knowledge-base, collapsed; `open` comes from ?autocreate=true. */
export function AutoCreatePanel({ open }: { open: boolean }) {
  return (
    <section className="card" id="auto-create" data-open={open ? '' : undefined}>
      <header className="card__header">
        <div className="row">
          <Icon name="sparkles" />
          <h2 className="card__title">Auto Create KB</h2>
          <Badge colour="purple">AI Powered</Badge>
        </div>
        <a className="btn btn--secondary btn--sm" href="/knowledge-base?autocreate=true">
          Get Started
        </a>
      </header>
    </section>
  );
}
