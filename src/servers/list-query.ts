import { z } from 'zod';
import { ENVIRONMENTS, SERVER_PAGE_SIZE, SERVER_STATUSES } from './shared';
import { SERVER_LIST_COLUMNS, SERVER_PAGE_SIZE_MAX, SERVER_SORTS } from './shared/list';

const SORT_VALUES = SERVER_SORTS.flatMap((k) => [k, `-${k}`]);

/**
 * GET /api/servers?page=&pageSize=&q=&environment=&status=&sort=&columns=: one page; a value it does not know is a
 * 400 (unlike the unpaged list, which ignores it as it always did).
 */
export const serverPageQuery = z.object({
  page: z.coerce
    .number({ message: 'page must be a number.' })
    .int('page must be a whole number.')
    .min(1, 'page must be 1 or more.')
    .max(1_000_000, 'page is too large.')
    .default(1),
  pageSize: z.coerce
    .number({ message: 'pageSize must be a number.' })
    .int('pageSize must be a whole number.')
    .min(1, `pageSize must be between 1 and ${SERVER_PAGE_SIZE_MAX}.`)
    .max(SERVER_PAGE_SIZE_MAX, `pageSize must be between 1 and ${SERVER_PAGE_SIZE_MAX}.`)
    .default(SERVER_PAGE_SIZE),
  q: z.string().max(200, 'q must be at most 200 characters.').default(''),
  environment: z.enum(ENVIRONMENTS, { message: `environment must be one of ${ENVIRONMENTS.join(', ')}.` }).optional(),
  status: z.enum(SERVER_STATUSES, { message: `status must be one of ${SERVER_STATUSES.join(', ')}.` }).optional(),
  sort: z
    .string()
    .refine(
      (s) => SORT_VALUES.includes(s),
      `sort must be one of ${SERVER_SORTS.join(', ')} (a leading - sorts descending).`,
    )
    .default('server'),
  columns: z
    .string()
    .refine(
      (s) => s.split(',').every((c) => (SERVER_LIST_COLUMNS as readonly string[]).includes(c)),
      `columns may name ${SERVER_LIST_COLUMNS.join(', ')}.`,
    )
    .optional(),
});
export type ServerPageQuery = z.infer<typeof serverPageQuery>;

/** Parameters that ask for a page (the unpaged list keeps answering the whole array). */
const PAGE_PARAMS = ['page', 'pageSize', 'sort', 'columns'];
export const asksForPage = (query: Record<string, string>) => PAGE_PARAMS.some((k) => Object.hasOwn(query, k));

/** The page's query from /infrastructure's address: a value it does not know falls back to its default. */
export function pageQueryFromUrl(query: Record<string, string>): ServerPageQuery {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    // Own keys only: "?constructor=1" must not reach Object.prototype's members.
    if (!Object.hasOwn(serverPageQuery.shape, k)) continue;
    if (serverPageQuery.shape[k as keyof typeof serverPageQuery.shape].safeParse(v).success) clean[k] = v;
  }
  return serverPageQuery.parse(clean);
}
