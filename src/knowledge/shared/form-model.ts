/**
 * Spec §3 form models (how-to guide, server build document) and the spec §5 list rules. The field lists are
 * the model: the types below, the tolerant reader and the server's zod schema (schemas.ts) all derive from them.
 */

/** The text fields of a how-to guide (then its steps and tips). */
export const HOWTO_TEXT_FIELDS = ['purpose', 'accessRequired', 'toolsNeeded', 'dependencies'] as const;
/** The fields of a how-to step; `image` is an /objects/… path or ''. */
export const HOWTO_STEP_FIELDS = ['title', 'description', 'image', 'imageWidth', 'imageHeight'] as const;

/** The text fields of a server build document. */
export const BUILD_TEXT_FIELDS = [
  'serverName',
  'buildEngineer',
  'environment',
  'serverType',
  'osVersion',
  'serverPurpose',
  'keyServices',
  'networkRequirements',
  'storageRequirements',
  'accessRequired',
  'toolsNeeded',
  'dependencies',
] as const;
/** The lists of text of a build document (each keeps at least one entry in the form). */
export const BUILD_LIST_FIELDS = ['postBuildTasks', 'troubleshootingNotes', 'completionChecklist'] as const;
/** The text fields of a build step (besides its stepNumber). */
export const BUILD_STEP_TEXT_FIELDS = ['title', 'objective', 'commands', 'expectedResult'] as const;
/** The lists of a build step: actions and screenshots (image paths). */
export const BUILD_STEP_LIST_FIELDS = ['actions', 'screenshots'] as const;

// Type aliases, not interfaces: island props must be JSON, and only aliases are assignable to the Json type.
type Texts<K extends string> = { [P in K]: string };
type Lists<K extends string> = { [P in K]: string[] };

export type HowToStep = Texts<(typeof HOWTO_STEP_FIELDS)[number]>;
export type HowToForm = { kind: 'howto' } & Texts<(typeof HOWTO_TEXT_FIELDS)[number]> & {
    steps: HowToStep[];
    tips: string[];
  };
export type BuildStep = { stepNumber: number } & Texts<(typeof BUILD_STEP_TEXT_FIELDS)[number]> &
  Lists<(typeof BUILD_STEP_LIST_FIELDS)[number]>;
export type BuildForm = { kind: 'build' } & Texts<(typeof BUILD_TEXT_FIELDS)[number]> &
  Lists<(typeof BUILD_LIST_FIELDS)[number]> & { buildSteps: BuildStep[] };
export type FormModel = HowToForm | BuildForm;

/** Spec §9: default image size and the resize minimum. */
export const DEFAULT_IMAGE_WIDTH = '300px';
export const DEFAULT_IMAGE_HEIGHT = 'auto';
export const MIN_IMAGE_WIDTH = 100;
export const MIN_IMAGE_HEIGHT = 60;

/** Spec §5: build environment options (the first is the default). */
export const BUILD_ENVIRONMENTS = ['Production', 'Staging', 'Development', 'Testing'] as const;

const texts = <K extends string>(keys: readonly K[], value: (k: K) => string) =>
  Object.fromEntries(keys.map((k) => [k, value(k)])) as Texts<K>;

/** A new, empty how-to step (default image size). */
export const emptyHowToStep = (): HowToStep => ({
  ...texts(HOWTO_STEP_FIELDS, () => ''),
  imageWidth: DEFAULT_IMAGE_WIDTH,
  imageHeight: DEFAULT_IMAGE_HEIGHT,
});

/** A new how-to guide: one empty step, one empty tip. */
export const emptyHowTo = (): HowToForm => ({
  kind: 'howto',
  ...texts(HOWTO_TEXT_FIELDS, () => ''),
  steps: [emptyHowToStep()],
  tips: [''],
});

/** A new, empty build step with its number. */
export const emptyBuildStep = (stepNumber: number): BuildStep => ({
  stepNumber,
  ...texts(BUILD_STEP_TEXT_FIELDS, () => ''),
  actions: [''],
  screenshots: [],
});

/** A new build document (Production, one empty step, one empty entry per list). */
export const emptyBuild = (): BuildForm => ({
  kind: 'build',
  ...texts(BUILD_TEXT_FIELDS, () => ''),
  environment: BUILD_ENVIRONMENTS[0],
  buildSteps: [emptyBuildStep(1)],
  postBuildTasks: [''],
  troubleshootingNotes: [''],
  completionChecklist: [''],
});

/** Removes item i; an emptied list resets to one empty item (spec §5). */
export function removeOrReset(list: string[], i: number): string[] {
  const next = list.filter((_, j) => j !== i);
  return next.length ? next : [''];
}

/** Removes build step i, keeping at least one, and renumbers. */
export function removeBuildStep(steps: BuildStep[], i: number): BuildStep[] {
  if (steps.length <= 1) return steps;
  return steps.filter((_, j) => j !== i).map((s, j) => ({ ...s, stepNumber: j + 1 }));
}

/** Removes how-to step i, keeping at least one. */
export function removeHowToStep(steps: HowToStep[], i: number): HowToStep[] {
  return steps.length <= 1 ? steps : steps.filter((_, j) => j !== i);
}

/** Tips can be removed only while more than one remains. */
export function removeTip(tips: string[], i: number): string[] {
  return tips.length <= 1 ? tips : tips.filter((_, j) => j !== i);
}

type Raw = Record<string, unknown>;
const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
const strList = (v: unknown, min1: boolean) => {
  const list = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return min1 && list.length === 0 ? [''] : list;
};
const objects = (v: unknown): Raw[] => (Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? x : {})) : []);

function readHowTo(o: Raw): HowToForm {
  const steps = objects(o.steps).map((s) => ({
    ...texts(HOWTO_STEP_FIELDS, (k) => str(s[k])),
    imageWidth: str(s.imageWidth) || DEFAULT_IMAGE_WIDTH,
    imageHeight: str(s.imageHeight) || DEFAULT_IMAGE_HEIGHT,
  }));
  return {
    kind: 'howto',
    ...texts(HOWTO_TEXT_FIELDS, (k) => str(o[k])),
    steps: steps.length ? steps : [emptyHowToStep()],
    tips: strList(o.tips, true),
  };
}

function readBuild(o: Raw): BuildForm {
  const base = emptyBuild();
  const steps = objects(o.buildSteps).map((s, i) => ({
    stepNumber: i + 1,
    ...texts(BUILD_STEP_TEXT_FIELDS, (k) => str(s[k])),
    actions: strList(s.actions, true),
    screenshots: strList(s.screenshots, false),
  }));
  return {
    ...base,
    ...texts(BUILD_TEXT_FIELDS, (k) => str(o[k], base[k])),
    buildSteps: steps.length ? steps : [emptyBuildStep(1)],
    postBuildTasks: strList(o.postBuildTasks, true),
    troubleshootingNotes: strList(o.troubleshootingNotes, true),
    completionChecklist: strList(o.completionChecklist, true),
  };
}

/** Which form a model claims to be: its kind, else (the spec's fields have none) steps → how-to, buildSteps → build. */
export function formKindOfModel(model: Raw): unknown {
  if (model.kind !== undefined) return model.kind;
  if (Array.isArray(model.steps)) return 'howto';
  return Array.isArray(model.buildSteps) ? 'build' : undefined;
}

/** A saved formModel (JSON from the server) back into a form, tolerant of missing fields; null if neither kind. */
export function parseFormModel(raw: unknown): FormModel | null {
  if (!raw || typeof raw !== 'object') return null;
  const kind = formKindOfModel(raw as Raw);
  if (kind === 'howto') return readHowTo(raw as Raw);
  return kind === 'build' ? readBuild(raw as Raw) : null;
}

/** A new, empty form of a kind. */
export const emptyForm = (kind: FormModel['kind']): FormModel => (kind === 'howto' ? emptyHowTo() : emptyBuild());
