import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppDeps, AppEnv } from '../../src/app-env';
import type { CurrentUser } from '../../src/auth/sessions';
import { loadAssets } from '../../src/ui/assets';
import { shellSlots } from '../../src/shell-slots';
import { renderer, SIDEBAR_COOKIE } from '../../src/ui/renderer';
import { displayName, isActive, roleLabel } from '../../src/ui/Sidebar';
import { testBuildDir } from '../helpers/app';

const user: CurrentUser = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  role: 'editor',
  profileImageUrl: null,
  theme: 'system',
  timezone: 'UTC',
  compactView: false,
  autoSave: true,
};

const assets = loadAssets(testBuildDir);

/** Renders a page through the real renderer with `u` as the request's user (a test harness, not a route). */
async function render(u: CurrentUser, path = '/', collapsed = false): Promise<string> {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('deps', { assets } as AppDeps);
    c.set('user', u);
    await next();
  });
  app.use(renderer(shellSlots));
  app.get('*', (c) =>
    c.render(<p>body</p>, { title: 'Dashboard', subtitle: 'Overview of your infrastructure and knowledge base' }),
  );
  const res = await app.request(path, { headers: collapsed ? { Cookie: `${SIDEBAR_COOKIE}=collapsed` } : {} });
  return res.text();
}

describe('signed-in shell', () => {
  it('shows the six sidebar items with their links', async () => {
    const html = await render(user);
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

  it('highlights the item equal to or prefixing the path; the root only on exact match', async () => {
    expect(isActive('/', '/')).toBe(true);
    expect(isActive('/', '/team')).toBe(false);
    expect(isActive('/knowledge-base', '/knowledge-base')).toBe(true);
    expect(isActive('/infrastructure', '/infrastructure/abc')).toBe(true);
    const html = await render(user, '/infrastructure/abc');
    expect(html).toMatch(/href="\/infrastructure" aria-current="page"/);
    expect(html).not.toMatch(/href="\/" aria-current="page"/);
  });

  it('shows the Admin section with User Approvals only to admins', async () => {
    expect(await render(user)).not.toContain('User Approvals');
    const admin = await render({ ...user, role: 'admin' });
    expect(admin).toContain('User Approvals');
    expect(admin).toContain('href="/admin/approval"');
  });

  it('links the documents list and the health report for everyone', async () => {
    const html = await render(user);
    expect(html).toMatch(/href="\/documents"[^>]*>.*?>Documents<\/span>/);
    expect(html).toMatch(/href="\/reports\/health"[^>]*>.*?>Health Report<\/span>/);
  });

  it('lists jobs, monitoring settings and both deleted-items screens in the Admin section, only for those allowed', async () => {
    const adminOnly = ['/admin/approval', '/admin/jobs', '/knowledge-base/deleted', '/documents/deleted'];
    const viewer = await render({ ...user, role: 'viewer' });
    expect(viewer).not.toContain('>Admin</div>');
    // Editors plan maintenance windows, and see only that under Admin.
    const editor = await render(user);
    const editorSection = editor.slice(editor.indexOf('>Admin</div>'));
    expect(editorSection).toMatch(/href="\/admin\/maintenance-windows"[^>]*>.*?>Maintenance Windows<\/span>/);
    for (const href of [...adminOnly, '/admin/alert-rules', '/admin/sla-targets'])
      expect(editor).not.toContain(`href="${href}"`);
    const admin = await render({ ...user, role: 'admin' });
    const section = admin.slice(admin.indexOf('>Admin</div>'));
    for (const [label, href] of [
      ['Alert Rules', '/admin/alert-rules'],
      ['Maintenance Windows', '/admin/maintenance-windows'],
      ['SLA Targets', '/admin/sla-targets'],
      ['Jobs', '/admin/jobs'],
      ['Deleted Knowledge', '/knowledge-base/deleted'],
      ['Deleted Documents', '/documents/deleted'],
    ]) {
      expect(section).toMatch(new RegExp(`href="${href}"[^>]*>.*?>${label}</span>`));
    }
  });

  it('highlights only the most specific link (a deleted-items screen, not also its list)', async () => {
    const html = await render({ ...user, role: 'admin' }, '/documents/deleted');
    expect(html.match(/aria-current="page"/g)).toHaveLength(1);
    expect(html).toMatch(/href="\/documents\/deleted" aria-current="page"/);
    expect(await render(user, '/documents/abc/some-title')).toMatch(/href="\/documents" aria-current="page"/);
  });

  it('shows initial, name and role (User when absent) and Sign Out in the footer', async () => {
    const html = await render(user);
    expect(html).toContain('>A</span>');
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain('>Editor<');
    expect(roleLabel(null)).toBe('User');
    expect(html).toContain('href="/api/logout"');
    expect(html).toContain('Sign Out');
    expect(displayName({ firstName: null, lastName: null, email: 'x@y.z' })).toBe('x@y.z');
  });

  it('has a header with title, subtitle, both toggles, a search box and notifications', async () => {
    const html = await render(user);
    expect(html).toContain('<h1 class="page-header__title">Dashboard</h1>');
    expect(html).toContain('Overview of your infrastructure and knowledge base');
    expect(html).toContain('data-menu-toggle');
    expect(html).toContain('data-sidebar-toggle');
    expect(html).toContain('role="search"');
    expect(html).toContain('aria-label="Notifications"');
  });

  it('renders collapsed when asked (from the sidebar cookie)', async () => {
    expect(await render(user, '/', true)).toContain('class="shell" data-collapsed=""');
    expect(await render(user, '/', false)).not.toContain('data-collapsed');
  });

  it('shows the floating assistant button on every page but /ai, which is the assistant itself', async () => {
    expect(await render(user, '/team')).toContain('aria-label="Open AI Assistant"');
    expect(await render(user, '/ai')).not.toContain('aria-label="Open AI Assistant"');
  });
});
