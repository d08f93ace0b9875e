import type { DocumentEditorProps } from '../../../islands/DocumentEditor';
import type { ReviewPanelData } from '../../reviews/schemas';
import { Banner } from '../../ui/components';
import { Island } from '../../ui/Island';
import { LazyComments } from '../../comments/shared/LazyComments';
import { ReviewPanel } from './ReviewPanel';

/** The editor page body: the DocumentEditor island (server-rendered, so the fields read before any script runs). */
export function EditorPage({
  review,
  notice,
  ...props
}: DocumentEditorProps & { review?: ReviewPanelData; notice?: string }) {
  return (
    <div className="editor-page">
      {notice && <Banner variant="info">{notice}</Banner>}
      <noscript>
        <p className="banner banner--info">The editor needs JavaScript to save. You can still read the item below.</p>
      </noscript>
      <Island name="DocumentEditor" props={props} />
      {props.item && <LazyComments itemPath={`${props.base.replace(/^\/api/, '')}/${props.item.id}`} />}
      {review && <ReviewPanel review={review} editable />}
    </div>
  );
}
