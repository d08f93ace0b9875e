/** The words after an item's id in its address: `/knowledge-base/{id}/{slug}`. */

/** Sub-pages of an item (`/{id}/edit`, `/{id}/activity` …): a title that slugs to one of these gets no slug. */
const RESERVED = new Set([
  'edit',
  'delete',
  'activity',
  'comments',
  'versions',
  'restore',
  'undelete',
  'owner',
  'shares',
  'visibility',
  'watch',
  'mark-reviewed',
  'review-requests',
  'reviews',
  'print',
]);
const MAX_LENGTH = 60;

/** "Patch Günther's VPN: step 2" → "patch-gunther-s-vpn-step-2"; '' when nothing readable is left. */
export function itemSlug(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = words.length > MAX_LENGTH ? words.slice(0, MAX_LENGTH).replace(/-[^-]*$/, '') : words;
  const slug = cut.replace(/-+$/, '');
  return RESERVED.has(slug) ? '' : slug;
}
