import { z } from 'zod';

/** Required text, trimmed, with the spec's messages: "{Label} is required", "… must be at most {max} characters." */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters.`);
