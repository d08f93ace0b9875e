import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage, can, requirePageUser } from '../auth/policy';
import type { Item, Space } from './schemas';
import { itemFor } from './items';
import { editorHeading, editorItemOf, isKbType, kbTypeOf, SPACES, type EditorKind } from './shared';
import { EditorPage } from './views/EditorPage';
import { reviewPanelFor } from '../reviews/commands';
import { linkedServersOf } from '../runbooks/service';

/** The editor edits the newest revision, which its review panel is about. */
const editorReview = { mayWrite: true, showing: 'newest' } as const;

async function render(c: Context<AppEnv>, space: Space, kind: EditorKind, item: Item | null) {
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
      review={item ? await reviewPanelFor(c.var.deps.db, c.var.user, space, item, editorReview) : undefined}
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

/** GET /knowledge-base/new?type=…, /knowledge-base/:id/edit, /documents/new, /documents/:id/edit. */
export function editorPages() {
  const app = new Hono<AppEnv>();
  app.use('/knowledge-base/new', allowPage('content.write'));
  app.use('/knowledge-base/:id/edit', requirePageUser());
  app.use('/documents/new', allowPage('content.write'));
  app.use('/documents/:id/edit', requirePageUser());
  app.get('/knowledge-base/new', (c) => {
    const type = c.req.query('type');
    return render(c, 'knowledge', isKbType(type) ? type : 'knowledge-base', null);
  });
  app.get('/knowledge-base/:id/edit', async (c) => {
    const item = await load(c, 'knowledge');
    return render(c, 'knowledge', kbTypeOf(item.templateType), item);
  });
  app.get('/documents/new', (c) => render(c, 'documents', 'document', null));
  app.get('/documents/:id/edit', async (c) => render(c, 'documents', 'document', await load(c, 'documents')));
  return app;
}
