import { z } from 'zod';
import {
  BUILD_LIST_FIELDS,
  BUILD_STEP_LIST_FIELDS,
  BUILD_STEP_TEXT_FIELDS,
  BUILD_TEXT_FIELDS,
  CHANGE_NOTE_MAX,
  formKindOfModel,
  HOWTO_STEP_FIELDS,
  HOWTO_TEXT_FIELDS,
  kbTypes,
  REVIEW_INTERVAL_MAX,
  templateTypes,
} from './shared';

export {
  kbTypes,
  spaces,
  templateTypes,
  type ApiBase,
  type Item,
  type ItemAuthor,
  type KbType,
  type Space,
  type TemplateType,
  type VersionItem,
} from './shared';

const optionalText = (max?: number, label?: string) =>
  (max ? z.string().max(max, `${label} must be at most ${max} characters.`) : z.string()).nullable().optional();

const text = () => z.string({ error: 'must be text' }).optional();
const textList = () => z.array(z.string({ error: 'must be text' }), { error: 'must be a list of text' }).optional();
const texts = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, text()])) as Record<K, ReturnType<typeof text>>;
const textLists = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, textList()])) as Record<K, ReturnType<typeof textList>>;

const stepNumber = z.number({ error: 'must be a number' }).int('must be a whole number').positive('must be positive');

/** The form models of shared/form-model.ts: every field optional, none unknown, each of its type. */
const formSchemas = {
  howto: z.strictObject({
    kind: z.literal('howto').optional(),
    ...texts(HOWTO_TEXT_FIELDS),
    steps: z
      .array(z.strictObject(texts(HOWTO_STEP_FIELDS), { error: 'must be an object' }), { error: 'must be a list' })
      .optional(),
    tips: textList(),
  }),
  build: z.strictObject({
    kind: z.literal('build').optional(),
    ...texts(BUILD_TEXT_FIELDS),
    ...textLists(BUILD_LIST_FIELDS),
    buildSteps: z
      .array(
        z.strictObject(
          {
            stepNumber: stepNumber.optional(),
            ...texts(BUILD_STEP_TEXT_FIELDS),
            ...textLists(BUILD_STEP_LIST_FIELDS),
          },
          { error: 'must be an object' },
        ),
        { error: 'must be a list' },
      )
      .optional(),
  }),
};

/** One problem of a form model in words, naming where it is (formModel.steps.0.title must be text.). */
function formProblem(issue: z.core.$ZodIssue): string {
  const where = ['formModel', ...issue.path.map(String)].join('.');
  if (issue.code === 'unrecognized_keys') return `${where} has an unknown field "${issue.keys[0]}".`;
  return `${where} ${issue.message}.`;
}

/** A how-to or build form model (shared/form-model.ts): anything else is refused with the first problem named. */
export const formModelInput = z
  .record(z.string(), z.unknown(), { error: 'formModel must be an object.' })
  .superRefine((model, ctx) => {
    const kind = formKindOfModel(model);
    if (kind !== 'howto' && kind !== 'build') {
      ctx.addIssue({ code: 'custom', path: ['kind'], message: 'formModel.kind must be "howto" or "build".' });
      return;
    }
    for (const issue of formSchemas[kind].safeParse(model).error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: formProblem(issue) });
    }
  });

/** A document or knowledge item as sent by the editor (create and update). */
export const documentInput = z.object({
  title: z
    .string({ error: 'Title is required.' })
    .trim()
    .min(1, 'Title is required.')
    .max(255, 'Title must be at most 255 characters.'),
  content: z.string({ error: 'Content is required.' }).refine((s) => s.trim().length > 0, 'Content is required.'),
  excerpt: optionalText(),
  technology: optionalText(50, 'Technology'),
  domain: optionalText(20, 'Domain'),
  category: optionalText(100, 'Category'),
  tags: z
    .array(
      z.string({ error: 'Tags must be a list of text.' }).trim().max(100, 'A tag must be at most 100 characters.'),
      { error: 'Tags must be a list of text.' },
    )
    .max(100, 'At most 100 tags.')
    .optional(),
  isPublished: z.boolean({ error: 'isPublished must be true or false.' }).optional(),
  isTemplate: z.boolean({ error: 'isTemplate must be true or false.' }).optional(),
  templateType: z.enum(templateTypes, { error: 'Template type is not one of the known types.' }).nullable().optional(),
  attachedImages: z
    .array(z.string().max(500), { error: 'Attached images must be a list of paths.' })
    .max(200)
    .optional(),
  formModel: formModelInput.nullable().optional(),
  /** The author's note on what this save changed (the version's change log); empty means "say what changed". */
  changeNote: z
    .string({ error: 'Change note must be text.' })
    .trim()
    .max(CHANGE_NOTE_MAX, `Change note must be at most ${CHANGE_NOTE_MAX} characters.`)
    .optional(),
  /** Days between reviews (issue 22): null clears the review date; left out on create, the type's default applies. */
  reviewIntervalDays: z
    .number({ error: 'reviewIntervalDays must be a whole number of days or null.' })
    .int('reviewIntervalDays must be a whole number of days or null.')
    .min(1, `reviewIntervalDays must be between 1 and ${REVIEW_INTERVAL_MAX}.`)
    .max(REVIEW_INTERVAL_MAX, `reviewIntervalDays must be between 1 and ${REVIEW_INTERVAL_MAX}.`)
    .nullable()
    .optional(),
  /** The servers the item is linked to (issue 23), the whole set; left out, the links stay as they are. */
  serverIds: z
    .array(z.uuid({ error: 'serverIds must be server ids.' }), { error: 'serverIds must list server ids.' })
    .max(500, 'An item may link at most 500 servers.')
    .optional(),
  /** The version the edit was based on; a stale one answers 409. */
  version: z.number({ error: 'version must be a number.' }).int().positive().optional(),
});
export type DocumentInput = z.infer<typeof documentInput>;

export const views = ['grid', 'list', 'category'] as const;
export type ViewMode = (typeof views)[number];

/** The filters of the list screens (a GET form: every state is a URL). */
export const listQuery = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  type: z.enum(kbTypes).optional().catch(undefined),
  category: z.string().trim().max(100).optional().catch(undefined),
  view: z.enum(views).optional().catch(undefined),
  review: z.enum(['overdue', 'flagged']).optional().catch(undefined),
});
export type ListQuery = z.infer<typeof listQuery>;
