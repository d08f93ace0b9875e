import { z } from 'zod';
import { spaces } from '../knowledge/shared';

/** zod schemas of the import API and page. */

const space = z.enum(spaces, { error: 'space must be knowledge or documents.' });

/** POST /api/import?space=knowledge|documents&dryRun=true|false */
export const importQuery = z.object({
  space,
  dryRun: z.enum(['true', 'false'], { error: 'dryRun must be true or false.' }).default('false'),
});

/** The import page's form: which space the files go to. */
export const importForm = z.object({ space });

/** /import?space=… (a wrong value is the knowledge base). */
export const importPageQuery = z.object({ space: space.catch('knowledge') });
