import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { getCookie } from 'hono/cookie';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { htmlPage } from '../http/compress';
import { Document } from './Document';
import { RequestContext } from './request-context';
import { Shell, type ShellSlots } from './Shell';

export interface PageProps {
  title: string;
  subtitle?: string;
  /** Public pages (landing, login …) render without the signed-in shell. */
  bare?: boolean;
}

declare module 'hono' {
  interface ContextRenderer {
    // biome-ignore lint/style/useShorthandFunctionType: declaration merging with Hono's interface needs an interface
    (content: ReactNode, props: PageProps): Response | Promise<Response>;
  }
}

/** The slots of the signed-in frame for this request; features decide them, the app passes them in. */
export type ShellSlotsOf = (c: Context<AppEnv>) => ShellSlots;

/** Sidebar collapse is remembered in a cookie so the server renders it without a flash. */
export const SIDEBAR_COOKIE = 'sidebar';

/** Document (+ Shell when signed in) around a page's content. */
function Page(props: PageProps & { c: Context<AppEnv>; slots: ShellSlotsOf; children: ReactNode }) {
  const { c, slots, children, title, subtitle, bare } = props;
  const { user, deps } = c.var;
  return (
    <Document title={title} assets={deps.assets} theme={user?.theme} compact={user?.compactView}>
      {user && !bare ? (
        <Shell
          user={user}
          path={c.req.path}
          title={title}
          subtitle={subtitle}
          collapsed={getCookie(c, SIDEBAR_COOKIE) === 'collapsed'}
          query={c.req.path === '/search' ? c.req.query('q') : undefined}
          {...slots(c)}
        >
          {children}
        </Shell>
      ) : (
        children
      )}
    </Document>
  );
}

/** renderToString of the page, sent as HTML (gzipped here when the client takes it). */
export function renderPage(c: Context<AppEnv>, content: ReactNode, props: PageProps, slots: ShellSlotsOf): Response {
  const html = renderToString(
    <RequestContext.Provider value={c}>
      <Page c={c} slots={slots} {...props}>
        {content}
      </Page>
    </RequestContext.Provider>,
  );
  return htmlPage(c, `<!DOCTYPE html>${html}`);
}

/**
 * The page renderer (c.render). Errors thrown before it runs (CSRF, body limit, session) have no c.render yet:
 * the error handler calls renderPage itself.
 */
export const renderer =
  (slots: ShellSlotsOf): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.setRenderer((content, props) => renderPage(c, content, props, slots));
    await next();
  };
