import { SPACES, type Space } from '../../knowledge/shared';
import { Banner, Card, Field } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import type { ImportJobStatus } from '../../db/schema/values';
import { STATUS_LABELS } from './ImportJobPage';

export interface RecentImport {
  id: string;
  space: string;
  status: ImportJobStatus;
  total: number;
  created: number;
  createdAt: Date;
}

export interface ImportPageProps {
  space: Space;
  recent: RecentImport[];
  timeZone: string;
  limits: { upload: string; files: string; unpacked: string };
  error?: string;
}

/** /import: a plain multipart form (no JavaScript): the files and the space, then a preview to confirm. */
export function ImportPage({ space, recent, timeZone, limits, error }: ImportPageProps) {
  return (
    <div className="stack">
      <Card
        title="Import Markdown"
        subtitle="Each file becomes an item: front matter (title, category, tags, type, excerpt) is honoured; otherwise the first heading is the title and the folder the category. Images beside the files are kept with them."
      >
        {error && <Banner variant="error">{error}</Banner>}
        <form method="post" action="/import" encType="multipart/form-data" className="stack">
          <Field label="Import into" htmlFor="import-space">
            <select id="import-space" className="select" name="space" defaultValue={space}>
              {(Object.keys(SPACES) as Space[]).map((s) => (
                <option key={s} value={s}>
                  {SPACES[s].page.title}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Files"
            htmlFor="import-files"
            hint={`One .zip of folders (with images beside the files), or .md files and their images. At most ${limits.upload} and ${limits.files} files; a zip may unpack to ${limits.unpacked}.`}
          >
            <input
              id="import-files"
              className="input"
              type="file"
              name="files"
              multiple
              required
              accept=".md,.markdown,.zip,.png,.jpg,.jpeg,.gif,.webp"
            />
          </Field>
          <div>
            <button type="submit" className="btn btn--primary">
              Preview import
            </button>
          </div>
          <p className="muted">Nothing is imported until you confirm the preview.</p>
        </form>
      </Card>
      {recent.length > 0 && (
        <Card title="Your recent imports">
          <ul className="stack">
            {recent.map((r) => (
              <li key={r.id}>
                <a href={`/import/${r.id}`}>{formatDateTime(r.createdAt, timeZone)}</a>
                {` · ${SPACES[r.space as Space]?.page.title ?? r.space} · ${STATUS_LABELS[r.status]} · ${r.created} of ${r.total} created`}
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
