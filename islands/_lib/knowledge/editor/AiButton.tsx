import { useState } from 'react';
import { enhanceField, type AiField } from './ai';

/** A field-level "AI" button: disabled while the field is empty or a request is pending (spec §5). */
export function AiFieldButton({
  field,
  value,
  category,
  onEnhanced,
}: {
  field: AiField;
  value: string;
  category: string;
  onEnhanced: (text: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      const text = await enhanceField(field, value, category);
      if (text !== null) onEnhanced(text);
    } finally {
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      className="btn btn--ghost btn--sm"
      disabled={!value.trim() || busy}
      aria-label={`Enhance ${field} with AI`}
      onClick={() => void run()}
    >
      {busy ? 'Enhancing…' : 'AI'}
    </button>
  );
}
