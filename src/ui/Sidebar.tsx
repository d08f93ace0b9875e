import { Avatar } from './components';
import { Icon, type IconName } from './icons';

/** A sidebar link. */
export interface NavItem {
  label: string;
  href: string;
  icon: IconName;
}

/** A link with a count fetched after the page (htmx, `countUrl` answers the badge), so a kept page never shows an old one. */
export interface CountedNavItem extends NavItem {
  countUrl: string;
}

function CountedNavLink({ item, active }: { item: CountedNavItem; active: boolean }) {
  return (
    <a className="nav-item" href={item.href} aria-current={active ? 'page' : undefined} title={item.label}>
      <Icon name={item.icon} className="nav-item__icon" />
      <span className="nav-item__label">{item.label}</span>
      <span hx-get={item.countUrl} hx-trigger="load" hx-swap="outerHTML" />
    </a>
  );
}

/** Everyone's links: the spec's six plus the documents list and the health report. */
export const navItems: NavItem[] = [
  { label: 'Dashboard', href: '/', icon: 'dashboard' },
  { label: 'Knowledge Base', href: '/knowledge-base', icon: 'book' },
  { label: 'Documents', href: '/documents', icon: 'file' },
  { label: 'Infrastructure', href: '/infrastructure', icon: 'server' },
  { label: 'Health Report', href: '/reports/health', icon: 'activity' },
  { label: 'Ops AI', href: '/ai', icon: 'bot' },
  { label: 'Team', href: '/team', icon: 'users' },
  { label: 'Settings', href: '/settings', icon: 'settings' },
];

/** What the sidebar shows of the signed-in user (the session's user fits). */
export interface SidebarUser {
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: string;
  profileImageUrl: string | null;
}

/** Spec: active when the path equals the link or starts with it; the root only on exact match. */
export function isActive(href: string, path: string): boolean {
  if (href === '/') return path === '/';
  return path === href || path.startsWith(href);
}

/** The one link to highlight: the longest that is active (/documents/deleted, not also /documents). */
export function activeHref(items: NavItem[], path: string): string | undefined {
  const active = items.filter((item) => isActive(item.href, path));
  return active.sort((a, b) => b.href.length - a.href.length)[0]?.href;
}

/** Display name: first and last name, otherwise the e-mail. */
export function displayName(user: Pick<SidebarUser, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || user.email;
}

/** Role label: "User" when absent. */
export const roleLabel = (role?: string | null) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : 'User');

function NavLink({ item, active }: { item: NavItem; active: boolean }) {
  return (
    <a className="nav-item" href={item.href} aria-current={active ? 'page' : undefined} title={item.label}>
      <Icon name={item.icon} className="nav-item__icon" />
      <span className="nav-item__label">{item.label}</span>
    </a>
  );
}

/** The main navigation; `adminNav` (the links the policy allows, see src/shell-slots.tsx) fills the Admin section. */
export function Sidebar({
  user,
  path,
  adminNav,
  countedNav = [],
}: {
  user: SidebarUser;
  path: string;
  adminNav: NavItem[];
  countedNav?: CountedNavItem[];
}) {
  const name = displayName(user);
  const active = activeHref([...navItems, ...countedNav, ...adminNav], path);
  return (
    <aside className="sidebar" id="sidebar" aria-label="Main navigation">
      <a className="sidebar__brand" href="/">
        <Icon name="zap" className="nav-item__icon" />
        <span className="sidebar__brand-text">Ops Hub</span>
      </a>
      <nav className="sidebar__nav">
        {navItems.map((item) => (
          <NavLink key={item.href} item={item} active={item.href === active} />
        ))}
        {countedNav.map((item) => (
          <CountedNavLink key={item.href} item={item} active={item.href === active} />
        ))}
        {adminNav.length > 0 && (
          <div className="sidebar__section">
            <div className="sidebar__section-title">Admin</div>
            {adminNav.map((item) => (
              <NavLink key={item.href} item={item} active={item.href === active} />
            ))}
          </div>
        )}
      </nav>
      <div className="sidebar__footer">
        <div className="user-card">
          <Avatar imageUrl={user.profileImageUrl} initials={name.charAt(0).toUpperCase()} />
          <span className="user-card__text">
            <span className="user-card__name">{name}</span>
            <span className="user-card__role">{roleLabel(user.role)}</span>
          </span>
        </div>
        <a className="nav-item" href="/api/logout" title="Sign Out">
          <Icon name="logout" className="nav-item__icon" />
          <span className="nav-item__label">Sign Out</span>
        </a>
      </div>
    </aside>
  );
}
