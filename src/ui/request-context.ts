import { createContext, useContext } from 'react';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';

/** The request a page is rendered for, for server views that need it (islands read the assets from it). */
export const RequestContext = createContext<Context<AppEnv> | null>(null);

/** The request being rendered; only inside a page the renderer renders. */
export function useRequest(): Context<AppEnv> {
  const c = useContext(RequestContext);
  if (!c) throw new Error('useRequest() is only available while the renderer renders a page.');
  return c;
}
