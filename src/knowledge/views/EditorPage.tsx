import type { DocumentEditorProps } from '../../../islands/DocumentEditor';
import type { ReviewPanelData } from '../../reviews/schemas';
import { Banner } from '../../ui/components';
import { Island } from '../../ui/Island';
import { LazyComments } from '../../comments/shared/LazyComments';
import type { ReviewFlag } from '../../runbooks/shared';
import { ReviewPanel } from './ReviewPanel';
import { ReviewFlags } from './ReviewDate';

/**
 * The editor page body: the DocumentEditor island (server-rendered, so the fields read before any script runs), and
 * what changed on linked servers since the item was last reviewed (a save readers see clears it).
 */
export function EditorPage({
  review,
  notice,
  flags,
  ...props
}: DocumentEditorProps & { review?: ReviewPanelData; notice?: string; flags?: ReviewFlag[] }) {
  return (
    <div className="editor-page">
      {notice && <Banner variant="info">{notice}</Banner>}
      {flags && flags.length > 0 && <ReviewFlags flags={flags} timeZone={props.timeZone} />}
      <noscript>
        <p className="banner banner--info">The editor needs JavaScript to save. You can still read the item below.</p>
      </noscript>
      <Island name="DocumentEditor" props={props} />
      {props.item && <LazyComments itemPath={`${props.base.replace(/^\/api/, '')}/${props.item.id}`} />}
      {review && <ReviewPanel review={review} editable />}
    </div>
  );
}
