import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage, can, requirePageUser } from '../auth/policy';
import type { Item, Space } from './schemas';
import { itemFor } from './items';
import { editorHeading, editorItemOf, isKbType, kbTypeOf, SPACES, type EditorKind } from './shared';
import { EditorPage } from './views/EditorPage';
import { reviewPanelFor } from '../reviews/commands';
import { displayNameOf } from '../auth/service';
import { editorPrefillFor, linkedServersOf, reviewFlagsOf, type EditorPrefill } from '../runbooks/service';

/** The editor edits the newest revision, which its review panel is about. */
const editorReview = { mayWrite: true, showing: 'newest' } as const;

/** A new item created from a server: what the editor starts with, or a notice when the server is not there. */
type FromServer = { prefill?: EditorPrefill; notice?: string };

/** ?server=ID on /new: the server's prefill (a build document's pre-filled form, else just the link). */
async function fromServer(c: Context<AppEnv>, kind: EditorKind): Promise<FromServer> {
  const serverId = c.req.query('server');
  if (serverId === undefined) return {};
  const prefill = await editorPrefillFor(c.var.deps.db, serverId, kind, displayNameOf(c.var.user!));
  return prefill ? { prefill } : { notice: NO_SERVER_NOTICE };
}

/** The editor's notice when ?server= names no server: the new item opens empty, linked to nothing. */
export const NO_SERVER_NOTICE =
  'That server does not exist or was deleted, so this new item is not linked to a server.';

async function render(c: Context<AppEnv>, space: Space, kind: EditorKind, item: Item | null, extra: FromServer = {}) {
  const { title, subtitle } = editorHeading(kind, !item);
  c.header('Cache-Control', 'no-store');
  const { timezone, autoSave } = c.var.user!;
  const { api, path } = SPACES[space];
  const editorItem = item ? editorItemOf(item) : null;
  const sharing = item && can(c.var.user, 'item.share', item) ? { visibility: item.visibility } : undefined;
  const page = (
    <EditorPage
      base={api}
      kind={kind}
      listUrl={path}
      item={editorItem}
      timeZone={timezone}
      autoSave={autoSave}
      sharing={sharing}
      servers={item ? await linkedServersOf(c.var.deps.db, item.id) : undefined}
      flags={item ? await reviewFlagsOf(c.var.deps.db, item.id) : undefined}
      review={item ? await reviewPanelFor(c.var.deps.db, c.var.user, space, item, editorReview) : undefined}
      prefill={extra.prefill}
      notice={extra.notice}
    />
  );
  return c.render(page, { title, subtitle });
}

/** The item to edit: 404 when absent or not readable by the user, 403 when they may read but not edit it. */
function load(c: Context<AppEnv>, space: Space): Promise<Item> {
  return itemFor(
    c.var.deps.db,
    c.var.user,
    space,
    c.req.param('id') ?? '',
    'item.write',
    SPACES[space].messages.missing,
  );
}

/** GET /knowledge-base/new?type=…&server=…, /documents/new?server=…, /knowledge-base/:id/edit, /documents/:id/edit. */
export function editorPages() {
  const app = new Hono<AppEnv>();
  app.use('/knowledge-base/new', allowPage('content.write'));
  app.use('/knowledge-base/:id/edit', requirePageUser());
  app.use('/documents/new', allowPage('content.write'));
  app.use('/documents/:id/edit', requirePageUser());
  app.get('/knowledge-base/new', async (c) => {
    const type = c.req.query('type');
    const kind = isKbType(type) ? type : 'knowledge-base';
    return render(c, 'knowledge', kind, null, await fromServer(c, kind));
  });
  app.get('/knowledge-base/:id/edit', async (c) => {
    const item = await load(c, 'knowledge');
    return render(c, 'knowledge', kbTypeOf(item.templateType), item);
  });
  app.get('/documents/new', async (c) => render(c, 'documents', 'document', null, await fromServer(c, 'document')));
  app.get('/documents/:id/edit', async (c) => render(c, 'documents', 'document', await load(c, 'documents')));
  return app;
}
