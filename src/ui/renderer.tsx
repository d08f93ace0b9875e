import { reactRenderer } from '@hono/react-renderer';
import { getCookie } from 'hono/cookie';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { Document } from './Document';
import { Shell } from './Shell';

declare module '@hono/react-renderer' {
  interface Props {
    title: string;
    subtitle?: string;
    /** Public pages (landing, login …) render without the signed-in shell. */
    bare?: boolean;
  }
}

/** Sidebar collapse is remembered in a cookie so the server renders it without a flash. */
export const SIDEBAR_COOKIE = 'sidebar';

/** The page renderer: renderToString of Document (+ Shell when signed in). */
export const renderer = reactRenderer(({ children, title, subtitle, bare, c }) => {
  const ctx = c as Context<AppEnv>;
  const { user, deps } = ctx.var;
  const withShell = user && !bare;
  return (
    <Document title={title} assets={deps.assets} theme={user?.theme}>
      {withShell ? (
        <Shell
          user={user}
          path={ctx.req.path}
          title={title}
          subtitle={subtitle}
          collapsed={getCookie(ctx, SIDEBAR_COOKIE) === 'collapsed'}
          query={ctx.req.path === '/search' ? ctx.req.query('q') : undefined}
        >
          {children}
        </Shell>
      ) : (
        children
      )}
    </Document>
  );
});
