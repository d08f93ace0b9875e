import type { ReactNode } from 'react';
import { Header } from './Header';
import { Sidebar, type SidebarUser } from './Sidebar';

/** What the signed-in frame shows that features decide; the app supplies it (src/shell-slots.tsx). */
export interface ShellSlots {
  /** The sidebar's Admin section. */
  adminNav: boolean;
  /** Floating over every signed-in page (the Ops AI launcher). */
  launcher?: ReactNode;
}

export interface ShellProps extends ShellSlots {
  user: SidebarUser;
  path: string;
  title: string;
  subtitle?: string;
  collapsed?: boolean;
  query?: string;
  children: ReactNode;
}

/** The signed-in frame: sidebar, header, content. Collapse and mobile menu are handled by boot.js. */
export function Shell({ user, path, title, subtitle, collapsed, query, adminNav, launcher, children }: ShellProps) {
  return (
    <div className="shell" data-collapsed={collapsed ? '' : undefined}>
      <Sidebar user={user} path={path} adminNav={adminNav} />
      <div className="sidebar-overlay" data-menu-close hidden />
      <div className="main">
        <Header title={title} subtitle={subtitle} query={query} />
        <main className="content" id="main">
          {children}
        </main>
      </div>
      {launcher}
    </div>
  );
}
