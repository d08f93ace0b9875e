import { Icon } from '../../ui/icons';

/** The floating Ops AI button on every signed-in page: plain HTML (a link to /ai without JavaScript). */
export function AssistantLauncher() {
  return (
    <a className="fab" href="/ai" aria-label="Open AI Assistant" title="AI Assistant">
      <Icon name="bot" />
    </a>
  );
}
