import { Avatar } from './components';
import { Icon, type IconName } from './icons';

export const navItems: { label: string; href: string; icon: IconName }[] = [
  { label: 'Dashboard', href: '/', icon: 'dashboard' },
  { label: 'Knowledge Base', href: '/knowledge-base', icon: 'book' },
  { label: 'Infrastructure', href: '/infrastructure', icon: 'server' },
  { label: 'Ops AI', href: '/ai', icon: 'bot' },
  { label: 'Team', href: '/team', icon: 'users' },
  { label: 'Settings', href: '/settings', icon: 'settings' },
];

export const adminItems: { label: string; href: string; icon: IconName }[] = [
  { label: 'User Approvals', href: '/admin/approval', icon: 'shield' },
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

/** Display name: first and last name, otherwise the e-mail. */
export function displayName(user: Pick<SidebarUser, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || user.email;
}

/** Role label: "User" when absent. */
export const roleLabel = (role?: string | null) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : 'User');

function NavLink({ item, path }: { item: (typeof navItems)[number]; path: string }) {
  const active = isActive(item.href, path);
  return (
    <a className="nav-item" href={item.href} aria-current={active ? 'page' : undefined} title={item.label}>
      <Icon name={item.icon} className="nav-item__icon" />
      <span className="nav-item__label">{item.label}</span>
    </a>
  );
}

/** The main navigation; `adminNav` (decided by the policy, see src/shell-slots.tsx) adds the Admin section. */
export function Sidebar({ user, path, adminNav }: { user: SidebarUser; path: string; adminNav: boolean }) {
  const name = displayName(user);
  return (
    <aside className="sidebar" id="sidebar" aria-label="Main navigation">
      <a className="sidebar__brand" href="/">
        <Icon name="zap" className="nav-item__icon" />
        <span className="sidebar__brand-text">Ops Hub</span>
      </a>
      <nav className="sidebar__nav">
        {navItems.map((item) => (
          <NavLink key={item.href} item={item} path={path} />
        ))}
        {adminNav && (
          <div className="sidebar__section">
            <div className="sidebar__section-title">Admin</div>
            {adminItems.map((item) => (
              <NavLink key={item.href} item={item} path={path} />
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
