import { Badge } from '../../ui/components';
import { Icon } from '../../ui/icons';
import { Island } from '../../ui/Island';

/**
 * The Auto Create KB panel on /knowledge-base; `open` comes from ?autocreate=true. Collapsed it is plain
 * HTML (Get Started links to ?autocreate=true); the AutoCreateKb island loads when Get Started is clicked.
 */
export function AutoCreatePanel({ open }: { open: boolean }) {
  return (
    <section
      className="card auto-create"
      id="auto-create"
      aria-labelledby="auto-create-title"
      data-open={open ? '' : undefined}
    >
      <header className="card__header">
        <div className="row">
          <Icon name="sparkles" />
          <h2 className="card__title" id="auto-create-title">
            Auto Create KB
          </h2>
          <Badge colour="purple">AI Powered</Badge>
        </div>
        <a
          className="btn btn--secondary btn--sm"
          href="/knowledge-base?autocreate=true"
          data-island-trigger="AutoCreateKb"
          hidden={open}
        >
          Get Started
        </a>
      </header>
      {open ? (
        <Island name="AutoCreateKb" props={{ open: true }} />
      ) : (
        <Island name="AutoCreateKb" props={{ open: true }} load="interaction" clientOnly />
      )}
    </section>
  );
}
