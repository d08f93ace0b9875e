import { Icon, type IconName } from '../../ui/icons';

const features: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'file',
    title: 'Smart Documentation',
    text: 'Rich-text documentation with templates, versioning and AI suggestions for work instructions, how-to guides and server builds.',
  },
  {
    icon: 'activity',
    title: 'Infrastructure Monitoring',
    text: 'A live server inventory with real health checks, metrics from your agents and automated documentation.',
  },
  {
    icon: 'bot',
    title: 'AI Assistant',
    text: 'Ops AI answers questions about your servers and runbooks from your own inventory and knowledge base.',
  },
  {
    icon: 'users',
    title: 'Team Collaboration',
    text: 'A shared team directory, comments and role-based access so everyone finds the right runbook and the right person.',
  },
  {
    icon: 'lock',
    title: 'Enterprise Security',
    text: 'Verified accounts approved by an admin, hashed secrets, strict sessions and audit trails for every change.',
  },
  {
    icon: 'zap',
    title: 'High Performance',
    text: 'Fast search and pages that load quickly on any laptop, with no heavy scripts where you only read.',
  },
];

/** The signed-out landing page (spec shell §2 "Landing page"). */
export function LandingPage() {
  return (
    <div className="landing">
      <header className="landing-header">
        <a className="sidebar__brand" href="/">
          <Icon name="zap" className="nav-item__icon" />
          <span className="sidebar__brand-text">Ops Hub</span>
        </a>
        <nav className="row">
          <a className="btn btn--ghost" href="/login">
            Sign In
          </a>
          <a className="btn btn--primary" href="/register">
            Get Started
          </a>
        </nav>
      </header>
      <main>
        <section className="hero">
          <h1 className="hero__title">Your infrastructure knowledge, in one place</h1>
          <p className="hero__lead">
            Ops Hub keeps your knowledge base, work instructions, server inventory and team directory together, with an
            AI assistant that answers from your own data.
          </p>
          <div className="hero__actions">
            <a className="btn btn--primary" href="/register">
              Get Started
            </a>
            <a className="btn btn--secondary" href="/login">
              Sign In
            </a>
          </div>
        </section>
        <section className="features" aria-label="Features">
          {features.map((f) => (
            <article className="feature-card" key={f.title}>
              <span className="feature-card__icon">
                <Icon name={f.icon} />
              </span>
              <h2 className="feature-card__title">{f.title}</h2>
              <p className="feature-card__text">{f.text}</p>
            </article>
          ))}
        </section>
        <section className="cta">
          <h2>Ready to bring order to your operations?</h2>
          <p>Set up your team's hub in minutes.</p>
          <a className="btn btn--primary" href="/register">
            Start Your Free Trial
          </a>
        </section>
      </main>
      <footer className="site-footer">
        <p>© 2025 Ops Hub. All rights reserved.</p>
      </footer>
    </div>
  );
}
