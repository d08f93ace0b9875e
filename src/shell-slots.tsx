import { AssistantLauncher } from './ai/views/AssistantLauncher';
import { can } from './auth/policy';
import type { ShellSlotsOf } from './ui/renderer';

/**
 * What the signed-in frame (src/ui/Shell.tsx) shows that features decide: ui/ imports no feature, so the app
 * composes these here and hands them to the renderer.
 */
export const shellSlots: ShellSlotsOf = (c) => ({
  adminNav: can(c.var.user, 'user.approve'),
  // On /ai the page is the assistant: a floating copy would only cover its Send button.
  launcher: c.req.path === '/ai' ? undefined : <AssistantLauncher />,
});
