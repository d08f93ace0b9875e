/** Spec §3 form models (how-to guide, server build document) and the spec §5 list rules. */

export interface HowToStep {
  title: string;
  description: string;
  /** Image path (/objects/…) or '' when none. */
  image: string;
  imageWidth: string;
  imageHeight: string;
}

export interface HowToForm {
  kind: 'howto';
  purpose: string;
  accessRequired: string;
  toolsNeeded: string;
  dependencies: string;
  steps: HowToStep[];
  tips: string[];
}

export interface BuildStep {
  stepNumber: number;
  title: string;
  objective: string;
  actions: string[];
  commands: string;
  expectedResult: string;
  /** Image paths. */
  screenshots: string[];
}

export interface BuildForm {
  kind: 'build';
  serverName: string;
  buildEngineer: string;
  environment: string;
  serverType: string;
  osVersion: string;
  serverPurpose: string;
  keyServices: string;
  networkRequirements: string;
  storageRequirements: string;
  accessRequired: string;
  toolsNeeded: string;
  dependencies: string;
  buildSteps: BuildStep[];
  postBuildTasks: string[];
  troubleshootingNotes: string[];
  completionChecklist: string[];
}

export type FormModel = HowToForm | BuildForm;

/** Spec §9: default image size and the resize minimum. */
export const DEFAULT_IMAGE_WIDTH = '300px';
export const DEFAULT_IMAGE_HEIGHT = 'auto';
export const MIN_IMAGE_WIDTH = 100;
export const MIN_IMAGE_HEIGHT = 60;

export const emptyHowToStep = (): HowToStep => ({
  title: '',
  description: '',
  image: '',
  imageWidth: DEFAULT_IMAGE_WIDTH,
  imageHeight: DEFAULT_IMAGE_HEIGHT,
});

export const emptyHowTo = (): HowToForm => ({
  kind: 'howto',
  purpose: '',
  accessRequired: '',
  toolsNeeded: '',
  dependencies: '',
  steps: [emptyHowToStep()],
  tips: [''],
});

export const emptyBuildStep = (stepNumber: number): BuildStep => ({
  stepNumber,
  title: '',
  objective: '',
  actions: [''],
  commands: '',
  expectedResult: '',
  screenshots: [],
});

export const emptyBuild = (): BuildForm => ({
  kind: 'build',
  serverName: '',
  buildEngineer: '',
  environment: 'Production',
  serverType: '',
  osVersion: '',
  serverPurpose: '',
  keyServices: '',
  networkRequirements: '',
  storageRequirements: '',
  accessRequired: '',
  toolsNeeded: '',
  dependencies: '',
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

const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
const strList = (v: unknown, min1: boolean) => {
  const list = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return min1 && list.length === 0 ? [''] : list;
};

/** A saved formModel (JSON from the server) back into a form, tolerant of missing fields; null if it is neither kind. */
export function parseFormModel(raw: unknown): FormModel | null {
  if (!raw || typeof raw !== 'object') return null;
  const o = raw as Record<string, unknown>;
  if (o.kind === 'howto' || (o.kind === undefined && Array.isArray(o.steps))) {
    const steps = Array.isArray(o.steps) ? o.steps : [];
    return {
      kind: 'howto',
      purpose: str(o.purpose),
      accessRequired: str(o.accessRequired),
      toolsNeeded: str(o.toolsNeeded),
      dependencies: str(o.dependencies),
      steps: steps.length
        ? steps.map((s: Record<string, unknown>) => ({
            title: str(s?.title),
            description: str(s?.description),
            image: str(s?.image),
            imageWidth: str(s?.imageWidth, DEFAULT_IMAGE_WIDTH) || DEFAULT_IMAGE_WIDTH,
            imageHeight: str(s?.imageHeight, DEFAULT_IMAGE_HEIGHT) || DEFAULT_IMAGE_HEIGHT,
          }))
        : [emptyHowToStep()],
      tips: strList(o.tips, true),
    };
  }
  if (o.kind === 'build' || (o.kind === undefined && Array.isArray(o.buildSteps))) {
    const base = emptyBuild();
    const steps = Array.isArray(o.buildSteps) ? o.buildSteps : [];
    const text = Object.fromEntries(
      (
        [
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
        ] as const
      ).map((k) => [k, str(o[k], base[k])]),
    );
    return {
      ...base,
      ...text,
      kind: 'build',
      buildSteps: steps.length
        ? steps.map((s: Record<string, unknown>, i) => ({
            stepNumber: i + 1,
            title: str(s?.title),
            objective: str(s?.objective),
            actions: strList(s?.actions, true),
            commands: str(s?.commands),
            expectedResult: str(s?.expectedResult),
            screenshots: strList(s?.screenshots, false),
          }))
        : [emptyBuildStep(1)],
      postBuildTasks: strList(o.postBuildTasks, true),
      troubleshootingNotes: strList(o.troubleshootingNotes, true),
      completionChecklist: strList(o.completionChecklist, true),
    };
  }
  return null;
}
