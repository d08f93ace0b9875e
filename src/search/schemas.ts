import { z } from 'zod';

export const resultTypes = ['knowledge', 'document', 'server'] as const;
export type SearchResultType = (typeof resultTypes)[number];

/** One global-search hit, pointing at its deep link. */
export interface SearchResult {
  id: string;
  title: string;
  excerpt: string | null;
  category: string | null;
  type: SearchResultType;
  url: string;
}

/** ?q=&limit= (limit 1–50, default 8). */
export const searchQuery = z.object({
  q: z.string().max(200, 'The search text must be at most 200 characters.').optional().default(''),
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit must be between 1 and 50.')
    .max(50, 'limit must be between 1 and 50.')
    .default(8),
});
