import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow, type OnDenied } from '../auth/policy';
import { requirePageUser } from '../auth/policy';
import { fragment } from '../http/htmx';
import { search } from './service';
import { SearchPage } from './views/SearchPage';
import { Suggestions } from './views/Suggestions';

const queryOf = (raw: string | undefined) => (raw ?? '').slice(0, 200);

/** The header list fragment's refusal: a line of HTML, not an error page. */
const signInToSearch: OnDenied = (c, status) =>
  c.html('<p class="search-results__empty">Sign in to search.</p>', status);

/** GET /search (results page without JavaScript) and GET /search/suggest (the header list fragment). */
export function searchPages() {
  const app = new Hono<AppEnv>();
  app.get('/search', requirePageUser(), async (c) => {
    const q = queryOf(c.req.query('q'));
    const results = await search(c.var.deps.db, c.var.user, q, 50);
    return c.render(<SearchPage q={q} results={results} />, {
      title: 'Search',
      subtitle: 'Knowledge base, documents and servers',
    });
  });
  app.get('/search/suggest', allow('app.use', signInToSearch), async (c) => {
    const q = queryOf(c.req.query('q'));
    const results = await search(c.var.deps.db, c.var.user, q, 8);
    c.header('Cache-Control', 'no-store');
    return fragment(c, <Suggestions q={q} results={results} />);
  });
  return app;
}
