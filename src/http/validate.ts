import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { zodErrorBody } from './errors';

/** zod validation at the edge: bad input → 400 { message, issues }. */
export const validate = <T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result, c) => {
    if (!result.success) return c.json(zodErrorBody(result.error as never), 400);
  });
