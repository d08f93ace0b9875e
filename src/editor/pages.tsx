import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { notFound } from '../http/errors';
import { requirePageUser } from '../http/session';
import { editorHeading, type EditorKind } from '../../islands/_lib/editor/kinds';
import type { EditorItem } from '../../islands/_lib/editor/state';
import { kbTypeOf, kbTypes, type KbType } from '../knowledge/labels';
import { spaceBase, type Item, type Space } from '../knowledge/schemas';
import { getItem } from '../knowledge/service';
import { EditorPage } from './views/EditorPage';

/** The island's JSON view of an item (no author, no server-only fields). */
function editorItem(item: Item): EditorItem {
  const {
    id,
    title,
    content,
    excerpt,
    technology,
    domain,
    category,
    tags,
    version,
    isPublished,
    isTemplate,
    templateType,
    attachedImages,
    updatedAt,
  } = item;
  return {
    id,
    title,
    content,
    excerpt,
    technology,
    domain,
    category,
    tags,
    version,
    isPublished,
    isTemplate,
    templateType,
    attachedImages,
    updatedAt,
    formModel: (item.formModel as EditorItem['formModel']) ?? null,
  };
}

function render(c: Context<AppEnv>, space: Space, kind: EditorKind, item: Item | null) {
  const { title, subtitle } = editorHeading(kind, !item);
  const listUrl = space === 'knowledge' ? '/knowledge-base' : '/documents';
  c.header('Cache-Control', 'no-store');
  const { timezone, autoSave } = c.var.user!;
  const page = (
    <EditorPage
      base={spaceBase[space]}
      kind={kind}
      listUrl={listUrl}
      item={item ? editorItem(item) : null}
      timeZone={timezone}
      autoSave={autoSave}
    />
  );
  return c.render(page, { title, subtitle });
}

async function load(c: Context<AppEnv>, space: Space): Promise<Item> {
  const item = await getItem(c.var.deps.db, space, c.req.param('id') ?? '');
  if (!item)
    throw notFound(
      space === 'knowledge'
        ? 'That knowledge base item does not exist or was deleted.'
        : 'That document does not exist or was deleted.',
    );
  return item;
}

const isKbType = (t: string | undefined): t is KbType => !!t && (kbTypes as readonly string[]).includes(t);

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
