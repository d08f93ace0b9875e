import { AssistantLauncher } from './ai/views/AssistantLauncher';
import { type Action, can } from './auth/policy';
import type { ShellSlotsOf } from './ui/renderer';
import type { NavItem } from './ui/Sidebar';

/** The Admin section's links, each shown only to those the policy lets through its page guard. */
const adminLinks: (NavItem & { action: Action })[] = [
  { label: 'User Approvals', href: '/admin/approval', icon: 'shield', action: 'user.approve' },
  { label: 'Users', href: '/admin/users', icon: 'users', action: 'users.manage' },
  { label: 'Audit Trail', href: '/admin/audit', icon: 'clipboard', action: 'audit.read' },
  { label: 'Review Rules', href: '/admin/review', icon: 'check', action: 'review.policy' },
  { label: 'Jobs', href: '/admin/jobs', icon: 'clock', action: 'jobs.read' },
  { label: 'Alert Rules', href: '/admin/alert-rules', icon: 'bell', action: 'alerts.manage' },
  { label: 'Webhooks', href: '/admin/webhooks', icon: 'zap', action: 'webhooks.manage' },
  { label: 'Maintenance Windows', href: '/admin/maintenance-windows', icon: 'clock', action: 'maintenance.manage' },
  { label: 'SLA Targets', href: '/admin/sla-targets', icon: 'activity', action: 'sla.manage' },
  { label: 'Deleted Knowledge', href: '/knowledge-base/deleted', icon: 'trash', action: 'knowledge.restore' },
  { label: 'Deleted Documents', href: '/documents/deleted', icon: 'trash', action: 'knowledge.restore' },
];

/** Reviewers' open review requests (issue 22), with their count. */
const reviewRequestsLink = {
  label: 'Review Requests',
  href: '/review-requests',
  icon: 'clipboard',
  countUrl: '/review-requests/count',
} as const;

/**
 * What the signed-in frame (src/ui/Shell.tsx) shows that features decide: ui/ imports no feature, so the app
 * composes these here and hands them to the renderer.
 */
export const shellSlots: ShellSlotsOf = (c) => ({
  adminNav: adminLinks.filter((link) => can(c.var.user, link.action)).map(({ action: _, ...item }) => item),
  countedNav: can(c.var.user, 'item.review') ? [reviewRequestsLink] : [],
  // On /ai the page is the assistant: a floating copy would only cover its Send button.
  launcher: c.req.path === '/ai' ? undefined : <AssistantLauncher />,
});
