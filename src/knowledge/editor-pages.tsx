import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { notFound } from '../http/errors';
import { requirePageUser } from '../auth/policy';
import type { Item, Space } from './schemas';
import { getItem } from './service';
import { editorHeading, editorItemOf, isKbType, kbTypeOf, SPACES, type EditorKind } from './shared';
import { EditorPage } from './views/EditorPage';

function render(c: Context<AppEnv>, space: Space, kind: EditorKind, item: Item | null) {
  const { title, subtitle } = editorHeading(kind, !item);
  c.header('Cache-Control', 'no-store');
  const { timezone, autoSave } = c.var.user!;
  const { api, path } = SPACES[space];
  const editorItem = item ? editorItemOf(item) : null;
  const page = (
    <EditorPage base={api} kind={kind} listUrl={path} item={editorItem} timeZone={timezone} autoSave={autoSave} />
  );
  return c.render(page, { title, subtitle });
}

async function load(c: Context<AppEnv>, space: Space): Promise<Item> {
  const item = await getItem(c.var.deps.db, space, c.req.param('id') ?? '');
  if (!item) throw notFound(SPACES[space].messages.missing);
  return item;
}

/** GET /knowledge-base/new?type=…, /knowledge-base/:id/edit, /documents/new, /documents/:id/edit. */
export function editorPages() {
  const app = new Hono<AppEnv>();
  app.use('/knowledge-base/new', requirePageUser());
  app.use('/knowledge-base/:id/edit', requirePageUser());
  app.use('/documents/new', requirePageUser());
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
