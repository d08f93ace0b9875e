import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../src/auth/sessions';
import { Shell } from '../../src/ui/Shell';
import { displayName, isActive } from '../../src/ui/Sidebar';

const user: CurrentUser = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  role: 'user',
  profileImageUrl: null,
  theme: 'system',
  timezone: 'UTC',
};

const render = (u: CurrentUser, path = '/', collapsed = false) =>
  renderToString(
    <Shell user={u} path={path} title="Dashboard" subtitle="Overview of your infrastructure and knowledge base" collapsed={collapsed}>
      <p>body</p>
    </Shell>,
  );

describe('signed-in shell', () => {
  it('shows the six sidebar items with their links', () => {
    const html = render(user);
    for (const [label, href] of [
      ['Dashboard', '/'],
      ['Knowledge Base', '/knowledge-base'],
      ['Infrastructure', '/infrastructure'],
      ['Ops AI', '/ai'],
      ['Team', '/team'],
      ['Settings', '/settings'],
    ]) {
      expect(html).toContain(`href="${href}"`);
      expect(html).toContain(`>${label}</span>`);
    }
  });

  it('highlights the item equal to or prefixing the path; the root only on exact match', () => {
    expect(isActive('/', '/')).toBe(true);
    expect(isActive('/', '/team')).toBe(false);
    expect(isActive('/knowledge-base', '/knowledge-base')).toBe(true);
    expect(isActive('/infrastructure', '/infrastructure/abc')).toBe(true);
    const html = render(user, '/infrastructure/abc');
    expect(html).toMatch(/href="\/infrastructure" aria-current="page"/);
    expect(html).not.toMatch(/href="\/" aria-current="page"/);
  });

  it('shows the Admin section with User Approvals only to admins', () => {
    expect(render(user)).not.toContain('User Approvals');
    const admin = render({ ...user, role: 'admin' });
    expect(admin).toContain('User Approvals');
    expect(admin).toContain('href="/admin/approval"');
  });

  it('shows initial, name and role (User when absent) and Sign Out in the footer', () => {
    const html = render(user);
    expect(html).toContain('>A</span>');
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain('>User<');
    expect(html).toContain('href="/api/logout"');
    expect(html).toContain('Sign Out');
    expect(displayName({ firstName: null, lastName: null, email: 'x@y.z' })).toBe('x@y.z');
  });

  it('has a header with title, subtitle, both toggles, a search box and notifications', () => {
    const html = render(user);
    expect(html).toContain('<h1 class="page-header__title">Dashboard</h1>');
    expect(html).toContain('Overview of your infrastructure and knowledge base');
    expect(html).toContain('data-menu-toggle');
    expect(html).toContain('data-sidebar-toggle');
    expect(html).toContain('role="search"');
    expect(html).toContain('aria-label="Notifications"');
  });

  it('renders collapsed when asked (from the sidebar cookie)', () => {
    expect(render(user, '/', true)).toContain('class="shell" data-collapsed=""');
    expect(render(user, '/', false)).not.toContain('data-collapsed');
  });
});
