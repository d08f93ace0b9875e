import { Icon } from '../../ui/icons';
import { Island } from '../../ui/Island';

/**
 * The floating Ops AI button on every signed-in page: plain HTML (a link to /ai without JavaScript).
 * The chat panel island loads only when the button is first clicked (data-island-trigger, boot.ts).
 */
export function AssistantLauncher() {
  return (
    <>
      <a
        className="fab"
        href="/ai"
        aria-label="Open AI Assistant"
        title="AI Assistant"
        data-island-trigger="OpsChat"
        aria-haspopup="dialog"
      >
        <Icon name="bot" />
      </a>
      <Island
        name="OpsChat"
        props={{ mode: 'panel', now: null, exchanges: [], conversationId: null }}
        load="interaction"
        clientOnly
      />
    </>
  );
}
