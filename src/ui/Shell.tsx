import type { ReactNode } from 'react';
import type { CurrentUser } from '../auth/sessions';
import { AssistantLauncher } from '../ai/views/AssistantLauncher';
import { Header } from './Header';
import { Sidebar } from './Sidebar';

export interface ShellProps {
  user: CurrentUser;
  path: string;
  title: string;
  subtitle?: string;
  collapsed?: boolean;
  query?: string;
  children: ReactNode;
}

/** The signed-in frame: sidebar, header, content. Collapse and mobile menu are handled by boot.js. */
export function Shell({ user, path, title, subtitle, collapsed, query, children }: ShellProps) {
  return (
    <div className="shell" data-collapsed={collapsed ? '' : undefined}>
      <Sidebar user={user} path={path} />
      <div className="sidebar-overlay" data-menu-close hidden />
      <div className="main">
        <Header title={title} subtitle={subtitle} query={query} />
        <main className="content" id="main">
          {children}
        </main>
      </div>
      {/* On /ai the page is the assistant: a floating copy would only cover its Send button. */}
      {path !== '/ai' && <AssistantLauncher />}
    </div>
  );
}
