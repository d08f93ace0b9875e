import { diffLines, type ProposedChange, type ProposedField } from '../../../../src/knowledge/shared';

const LABELS: Record<ProposedField, string> = {
  title: 'Title',
  excerpt: 'Excerpt',
  purpose: 'Purpose',
  tags: 'Tags',
  content: 'Content',
};

/** The content's change as a line diff (the same marks as Version History). */
function ContentDiff({ before, after }: { before: string; after: string }) {
  return (
    <pre className="vh__diff">
      {diffLines(before, after).map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are recomputed, position is identity
        <div key={i} className={`vh__line vh__line--${line.kind}`}>
          {line.kind === 'add' ? '+ ' : line.kind === 'remove' ? '- ' : '  '}
          {line.text}
        </div>
      ))}
    </pre>
  );
}

/** A short field: the current text beside the proposed one. */
function FieldChange({ before, after }: { before: string; after: string }) {
  return (
    <dl className="editor-proposal__pair">
      <div>
        <dt className="muted small">Current</dt>
        <dd>{before || <span className="muted">(empty)</span>}</dd>
      </div>
      <div>
        <dt className="muted small">Proposed</dt>
        <dd>{after}</dd>
      </div>
    </dl>
  );
}

/** An AI proposal beside the current text, with Accept and Discard; nothing changes until Accept. */
export function ProposalPanel({
  changes,
  onAccept,
  onDiscard,
}: {
  changes: ProposedChange[];
  onAccept: () => void;
  onDiscard: () => void;
}) {
  return (
    <section className="card editor-proposal" aria-label="AI proposal">
      <div className="card__body stack">
        <div className="row">
          <strong>AI proposal</strong>
          <span className="muted small">Nothing changes until you accept it.</span>
        </div>
        {changes.map((c) => (
          <section key={c.field} className="stack editor-proposal__change" aria-label={`Proposed ${c.field}`}>
            <h3 className="field__label">{LABELS[c.field]}</h3>
            {c.field === 'content' ? (
              <ContentDiff before={c.before} after={c.after} />
            ) : (
              <FieldChange before={c.before} after={c.after} />
            )}
          </section>
        ))}
        <div className="row">
          <button type="button" className="btn btn--primary btn--sm" onClick={onAccept}>
            Accept
          </button>
          <button type="button" className="btn btn--secondary btn--sm" onClick={onDiscard}>
            Discard
          </button>
        </div>
      </div>
    </section>
  );
}
