import { useEffect, useState } from 'react';
import { api, ApiError } from '../../api';
import { toast } from '../../toast';

/** Renders markdown with the server's renderer (POST /api/markdown/render), so Preview matches the saved item. */
export function Preview({ content }: { content: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    if (!content.trim()) return;
    let live = true;
    setHtml(null);
    api<{ html: string }>('POST', '/api/markdown/render', { content })
      .then((r) => live && setHtml(r.html))
      .catch((e: unknown) => {
        if (!live) return;
        const tooLarge = e instanceof ApiError && (e.status === 413 || /too large|PayloadTooLargeError/i.test(e.body));
        toast(
          tooLarge
            ? 'Images are too large. Please use smaller images or fewer images.'
            : 'Failed to generate preview. Please try again.',
          undefined,
          'error',
        );
        setHtml('');
      });
    return () => {
      live = false;
    };
  }, [content]);

  if (!content.trim()) return <p className="muted editor-preview">No content yet...</p>;
  if (html === null)
    return (
      <p className="muted editor-preview" role="status">
        Rendering preview…
      </p>
    );
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's renderer sanitises this HTML
    <section className="prose editor-preview" aria-label="Preview" dangerouslySetInnerHTML={{ __html: html }} />
  );
}
