import type { ReactNode } from 'react';
import { DropZone } from './DropZone';
import {
  emptyHowToStep,
  removeHowToStep,
  removeTip,
  type HowToForm,
  type HowToStep,
} from '../../../../src/knowledge/shared';
import { ListField, TextField } from './ListField';
import { StepImage } from './StepImage';

interface Props {
  form: HowToForm;
  onChange: (form: HowToForm) => void;
  onImages: (paths: string[]) => void;
  /** The AI button for the purpose field. */
  purposeAction?: ReactNode;
}

/** The how-to guide form: purpose, prerequisites, numbered steps with pasted screenshots, tips. */
export function HowToFormView({ form, onChange, onImages, purposeAction }: Props) {
  const set = (patch: Partial<HowToForm>) => onChange({ ...form, ...patch });
  const setStep = (i: number, patch: Partial<HowToStep>) =>
    set({ steps: form.steps.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  return (
    <section className="stack editor-form" aria-label="How-to guide">
      <TextField
        label="Purpose"
        value={form.purpose}
        onChange={(purpose) => set({ purpose })}
        multiline
        action={purposeAction}
      />
      <fieldset className="stack editor-group">
        <legend className="field__label">Prerequisites</legend>
        <TextField
          label="Access Required"
          value={form.accessRequired}
          onChange={(accessRequired) => set({ accessRequired })}
        />
        <TextField label="Tools Needed" value={form.toolsNeeded} onChange={(toolsNeeded) => set({ toolsNeeded })} />
        <TextField label="Dependencies" value={form.dependencies} onChange={(dependencies) => set({ dependencies })} />
      </fieldset>
      <fieldset className="stack editor-group">
        <legend className="field__label">Steps</legend>
        <ol className="stack editor-steps">
          {form.steps.map((step, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id; they are edited by position
            <li key={i} className="card editor-step" aria-label={`Step ${i + 1}`}>
              <div className="card__body stack">
                <div className="row">
                  <strong>Step {i + 1}</strong>
                  <span className="spacer" />
                  {form.steps.length > 1 && (
                    <button
                      type="button"
                      className="btn btn--ghost btn--sm"
                      onClick={() => set({ steps: removeHowToStep(form.steps, i) })}
                    >
                      Remove step {i + 1}
                    </button>
                  )}
                </div>
                <TextField
                  label={`Step ${i + 1} title`}
                  value={step.title}
                  onChange={(title) => setStep(i, { title })}
                />
                <TextField
                  label={`Step ${i + 1} description`}
                  value={step.description}
                  onChange={(description) => setStep(i, { description })}
                  multiline
                />
                <DropZone
                  label={`Step ${i + 1} screenshot`}
                  onUploaded={(paths) => {
                    onImages(paths);
                    setStep(i, { image: paths[0] });
                  }}
                >
                  {step.image ? (
                    <StepImage
                      src={step.image}
                      alt={`Step ${i + 1} screenshot`}
                      width={step.imageWidth}
                      height={step.imageHeight}
                      onResize={(imageWidth, imageHeight) => setStep(i, { imageWidth, imageHeight })}
                      onRemove={() => setStep(i, { image: '' })}
                    />
                  ) : (
                    // biome-ignore lint/a11y/useSemanticElements: a paste target for images, not a text field
                    <div
                      className="editor-paste"
                      tabIndex={0}
                      role="textbox"
                      aria-label={`Paste a screenshot for step ${i + 1}`}
                    >
                      Click here and paste a screenshot, or drop an image.
                    </div>
                  )}
                </DropZone>
              </div>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={() => set({ steps: [...form.steps, emptyHowToStep()] })}
        >
          Add step
        </button>
      </fieldset>
      <ListField
        label="Tips"
        noun="tip"
        items={form.tips}
        onChange={(tips) => set({ tips })}
        remove={removeTip}
        canRemove={(items) => items.length > 1}
      />
    </section>
  );
}
