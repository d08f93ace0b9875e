import { DropZone } from './DropZone';
import {
  BUILD_ENVIRONMENTS,
  emptyBuildStep,
  removeBuildStep,
  removeOrReset,
  type BUILD_TEXT_FIELDS,
  type BuildForm,
  type BuildStep,
} from '../../../../src/knowledge/shared';
import { ListField, TextField } from './ListField';

interface Props {
  form: BuildForm;
  onChange: (form: BuildForm) => void;
  onImages: (paths: string[]) => void;
}

/** The build form's text fields but environment (a select). */
type TextKey = Exclude<(typeof BUILD_TEXT_FIELDS)[number], 'environment'>;

/** The server build document form: server info, overview, prerequisites, build steps, post-build tasks, notes, checklist. */
export function BuildFormView({ form, onChange, onImages }: Props) {
  const set = (patch: Partial<BuildForm>) => onChange({ ...form, ...patch });
  const text = (key: TextKey, label: string, multiline = false) => (
    <TextField label={label} value={form[key]} onChange={(v) => set({ [key]: v })} multiline={multiline} />
  );
  const setStep = (i: number, patch: Partial<BuildStep>) =>
    set({ buildSteps: form.buildSteps.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  return (
    <section className="stack editor-form" aria-label="Server build document">
      <fieldset className="form-grid grid grid--2 editor-group">
        <legend className="field__label">Server Information</legend>
        {text('serverName', 'Server Name')}
        {text('buildEngineer', 'Build Engineer')}
        <div className="field">
          <label className="field__label" htmlFor="build-environment">
            Environment
          </label>
          <select
            id="build-environment"
            className="select"
            value={form.environment}
            onChange={(e) => set({ environment: e.target.value })}
          >
            {BUILD_ENVIRONMENTS.map((env) => (
              <option key={env}>{env}</option>
            ))}
          </select>
        </div>
        {text('serverType', 'Server Type')}
        {text('osVersion', 'OS Version')}
      </fieldset>
      <fieldset className="stack editor-group">
        <legend className="field__label">Build Overview</legend>
        {text('serverPurpose', 'Server Purpose', true)}
        {text('keyServices', 'Key Services')}
        {text('networkRequirements', 'Network Requirements')}
        {text('storageRequirements', 'Storage Requirements')}
      </fieldset>
      <fieldset className="stack editor-group">
        <legend className="field__label">Prerequisites</legend>
        {text('accessRequired', 'Access Required')}
        {text('toolsNeeded', 'Tools Needed')}
        {text('dependencies', 'Dependencies')}
      </fieldset>
      <fieldset className="stack editor-group">
        <legend className="field__label">Build Steps</legend>
        <ol className="stack editor-steps">
          {form.buildSteps.map((step, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id; they are edited by position
            <li key={i} className="card editor-step" aria-label={`Build step ${i + 1}`}>
              <div className="card__body stack">
                <div className="row">
                  <strong>Step {step.stepNumber}</strong>
                  <span className="spacer" />
                  {form.buildSteps.length > 1 && (
                    <button
                      type="button"
                      className="btn btn--ghost btn--sm"
                      onClick={() => set({ buildSteps: removeBuildStep(form.buildSteps, i) })}
                    >
                      Remove build step {i + 1}
                    </button>
                  )}
                </div>
                <TextField
                  label={`Step ${i + 1} title`}
                  value={step.title}
                  onChange={(title) => setStep(i, { title })}
                />
                <TextField
                  label={`Step ${i + 1} objective`}
                  value={step.objective}
                  onChange={(objective) => setStep(i, { objective })}
                />
                <ListField
                  label={`Step ${i + 1} actions`}
                  noun="action"
                  items={step.actions}
                  onChange={(actions) => setStep(i, { actions })}
                  remove={removeOrReset}
                />
                <TextField
                  label={`Step ${i + 1} commands`}
                  value={step.commands}
                  onChange={(commands) => setStep(i, { commands })}
                  multiline
                />
                <TextField
                  label={`Step ${i + 1} expected result`}
                  value={step.expectedResult}
                  onChange={(expectedResult) => setStep(i, { expectedResult })}
                />
                <DropZone
                  label={`Step ${i + 1} screenshots`}
                  onUploaded={(paths) => {
                    onImages(paths);
                    setStep(i, { screenshots: [...step.screenshots, ...paths] });
                  }}
                >
                  {step.screenshots.length > 0 && (
                    <ul className="row editor-shots">
                      {step.screenshots.map((src, j) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: a path may repeat; the index tells copies apart
                        <li key={src + j}>
                          <img src={src} alt={`Step ${i + 1} screenshot ${j + 1}`} width={160} />
                          <button
                            type="button"
                            className="btn btn--ghost btn--sm"
                            onClick={() => setStep(i, { screenshots: step.screenshots.filter((_, k) => k !== j) })}
                          >
                            Remove screenshot {j + 1}
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                  {/* biome-ignore lint/a11y/useSemanticElements: a paste target for images, not a text field */}
                  <div
                    className="editor-paste"
                    tabIndex={0}
                    role="textbox"
                    aria-label={`Paste a screenshot for build step ${i + 1}`}
                  >
                    Click here and paste screenshots, or drop images.
                  </div>
                </DropZone>
              </div>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={() => set({ buildSteps: [...form.buildSteps, emptyBuildStep(form.buildSteps.length + 1)] })}
        >
          Add build step
        </button>
      </fieldset>
      <ListField
        label="Post-Build Tasks"
        noun="task"
        items={form.postBuildTasks}
        onChange={(postBuildTasks) => set({ postBuildTasks })}
        remove={removeOrReset}
      />
      <ListField
        label="Troubleshooting Notes"
        noun="note"
        items={form.troubleshootingNotes}
        onChange={(troubleshootingNotes) => set({ troubleshootingNotes })}
        remove={removeOrReset}
        multiline
      />
      <ListField
        label="Completion Checklist"
        noun="checklist item"
        items={form.completionChecklist}
        onChange={(completionChecklist) => set({ completionChecklist })}
        remove={removeOrReset}
      />
    </section>
  );
}
