import { z } from 'zod';
import { kbTypes, spaces } from '../knowledge/shared';

/** An empty query parameter (`?type=`, as a form sends an unset filter) is no filter. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** GET /api/export: the space and the list page's filters (q, type, category, review). */
export const spaceExportQuery = z.object({
  space: z.enum(spaces, { error: 'space must be "knowledge" or "documents".' }),
  q: optional(z.string().trim().max(200, 'q must be at most 200 characters.')),
  type: optional(z.enum(kbTypes, { error: `type must be one of ${kbTypes.join(', ')}.` })),
  category: optional(z.string().trim().max(100, 'category must be at most 100 characters.')),
  review: optional(z.enum(['overdue', 'flagged'], { error: 'review must be "overdue" or "flagged".' })),
});
export type SpaceExportQuery = z.infer<typeof spaceExportQuery>;
