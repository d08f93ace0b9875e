import type { ReactNode } from 'react';
import { Header } from './Header';
import { type CountedNavItem, type NavItem, Sidebar, type SidebarUser } from './Sidebar';

/** What the signed-in frame shows that features decide; the app supplies it (src/shell-slots.tsx). */
export interface ShellSlots {
  /** The sidebar's Admin section: the links this user may follow (none: no section). */
  adminNav: NavItem[];
  /** Links under the main ones with a count loaded after the page (Review requests), those this user may follow. */
  countedNav?: CountedNavItem[];
  /** Floating over every signed-in page (the Ops AI launcher). */
  launcher?: ReactNode;
}

export interface ShellProps extends ShellSlots {
  user: SidebarUser;
  path: string;
  title: string;
  /** False when the page has its own <h1>: the header's title is then a label. */
  titleIsHeading?: boolean;
  subtitle?: string;
  collapsed?: boolean;
  query?: string;
  children: ReactNode;
}

/** The signed-in frame: sidebar, header, content. Collapse and mobile menu are handled by boot.js. */
export function Shell({
  user,
  path,
  title,
  titleIsHeading,
  subtitle,
  collapsed,
  query,
  adminNav,
  countedNav,
  launcher,
  children,
}: ShellProps) {
  return (
    <div className="shell" data-collapsed={collapsed ? '' : undefined}>
      <Sidebar user={user} path={path} adminNav={adminNav} countedNav={countedNav} />
      <div className="sidebar-overlay" data-menu-close hidden />
      <div className="main">
        <Header title={title} titleIsHeading={titleIsHeading} subtitle={subtitle} query={query} />
        <main className="content" id="main">
          {children}
        </main>
      </div>
      {launcher}
    </div>
  );
}
