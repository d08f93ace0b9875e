import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { fragment } from '../http/htmx';
import { linkedServersOf } from '../runbooks/service';
import { ServersPanel } from '../runbooks/shared/ServersPanel';
import { itemFor } from './items';
import { SPACES } from './shared';

/** A uuid in a route pattern (as the read page's). */
const ID = ':id{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}';

/**
 * GET /knowledge-base/{id}/servers-panel and /documents/{id}/servers-panel: the read page's Servers panel as fresh
 * HTML (empty when no server is linked any more), for its refresh. 404 when the reader may not read the item.
 */
export function serversPanelRoutes() {
  const app = new Hono<AppEnv>();
  for (const space of ['knowledge', 'documents'] as const) {
    const { path, messages } = SPACES[space];
    app.get(`${path}/${ID}/servers-panel`, requireUser(), async (c) => {
      const { db, config } = c.var.deps;
      const user = c.var.user!;
      const item = await itemFor(db, user, space, c.req.param('id'), 'item.read', messages.missing);
      const servers = await linkedServersOf(db, item.id);
      c.header('Cache-Control', 'no-store');
      const panel = (
        <ServersPanel
          servers={servers}
          timeZone={user.timezone}
          refreshUrl={`${path}/${item.id}/servers-panel`}
          pollMs={config.serversPanelPollMs}
        />
      );
      return fragment(c, panel);
    });
  }
  return app;
}
