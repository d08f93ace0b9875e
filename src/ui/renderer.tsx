import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { getCookie } from 'hono/cookie';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { gzipPage, htmlPage } from '../http/compress';
import { takeFlash, type Toast } from '../http/flash';
import { cachedPage, cachePage } from './page-cache';
import { Document } from './Document';
import { RequestContext } from './request-context';
import { Shell, type ShellSlots } from './Shell';

export interface PageProps {
  title: string;
  subtitle?: string;
  /** Public pages (landing, login …) render without the signed-in shell. */
  bare?: boolean;
  /**
   * The header shows this section name instead of the title, not as a heading: the page has its own <h1> (an item's
   * read page); `title` is then only the document title.
   */
  section?: string;
  /**
   * Everything the content depends on, for a page read far more often than it changes: the whole page is then
   * kept (src/ui/page-cache.ts) and sent again for the same key, frame and reader.
   */
  cacheKey?: string;
  /** A toast the page shows on load (a refused form's); a flash left by a redirect shows otherwise. */
  toast?: Toast;
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
  const { c, slots, children, title, subtitle, bare, section, toast } = props;
  const { user, deps } = c.var;
  return (
    <Document
      title={title}
      assets={deps.assets}
      theme={user?.theme}
      compact={user?.compactView}
      toast={toast}
      offlinePack={user ? (bare ? undefined : user.id) : 'off'}
    >
      {user && !bare ? (
        <Shell
          user={user}
          path={c.req.path}
          title={section ?? title}
          titleIsHeading={section === undefined}
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

/** The key of a kept page: its content's key plus everything the frame shows (reader, address, assets). */
function pageKey(c: Context<AppEnv>, props: PageProps): string {
  const { assets } = c.var.deps;
  return JSON.stringify([
    props,
    c.var.user,
    c.req.path,
    getCookie(c, SIDEBAR_COOKIE) ?? null,
    assets.css,
    assets.boot,
    assets.htmx,
  ]);
}

/** renderToString of the page, sent as HTML (gzipped here when the client takes it). */
export function renderPage(c: Context<AppEnv>, content: ReactNode, props: PageProps, slots: ShellSlotsOf): Response {
  const flash = takeFlash(c);
  // A page with a flash is this visit's alone: it is neither kept nor taken from the kept pages.
  const key = props.cacheKey === undefined || flash ? undefined : pageKey(c, props);
  const kept = key === undefined ? undefined : cachedPage(key);
  if (kept) return htmlPage(c, kept.html, kept.gzip);
  const shown = { ...props, toast: props.toast ?? flash };
  const html = `<!DOCTYPE html>${renderPageToString(c, content, shown, slots)}`;
  if (key === undefined) return htmlPage(c, html);
  const page = { html, gzip: gzipPage(html) };
  cachePage(key, page);
  return htmlPage(c, page.html, page.gzip);
}

function renderPageToString(c: Context<AppEnv>, content: ReactNode, props: PageProps, slots: ShellSlotsOf): string {
  return renderToString(
    <RequestContext.Provider value={c}>
      <Page c={c} slots={slots} {...props}>
        {content}
      </Page>
    </RequestContext.Provider>,
  );
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
