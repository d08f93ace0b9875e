import { useRef } from 'react';
import {
  DEFAULT_IMAGE_HEIGHT,
  DEFAULT_IMAGE_WIDTH,
  MIN_IMAGE_HEIGHT,
  MIN_IMAGE_WIDTH,
} from '../../../../src/knowledge/shared';

interface Props {
  src: string;
  alt: string;
  width: string;
  height: string;
  onResize: (width: string, height: string) => void;
  onRemove: () => void;
}

/** Clamps a dragged size to the spec §9 minimum (100 × 60). */
export function clampSize(width: number, height: number): { width: string; height: string } {
  return {
    width: `${Math.max(MIN_IMAGE_WIDTH, Math.round(width))}px`,
    height: `${Math.max(MIN_IMAGE_HEIGHT, Math.round(height))}px`,
  };
}

/** A step's screenshot at its size (default 300px × auto), resizable with its corner handle or the size fields. */
export function StepImage({ src, alt, width, height, onResize, onRemove }: Props) {
  const img = useRef<HTMLImageElement>(null);

  function startDrag(e: React.PointerEvent) {
    e.preventDefault();
    const el = img.current;
    if (!el) return;
    const startX = e.clientX;
    const startY = e.clientY;
    const { width: w0, height: h0 } = el.getBoundingClientRect();
    const move = (ev: PointerEvent) => {
      const next = clampSize(w0 + ev.clientX - startX, h0 + ev.clientY - startY);
      onResize(next.width, next.height);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }

  const px = (v: string) => (/^\d+(px)?$/.test(v) ? Number.parseInt(v, 10) : undefined);
  return (
    <figure className="editor-step-image">
      <div className="editor-step-image__frame">
        <img
          ref={img}
          src={src}
          alt={alt}
          width={px(width)}
          height={px(height)}
          style={{ width: px(width) ? undefined : width, height: px(height) ? undefined : height }}
        />
        <span className="editor-step-image__handle" aria-hidden="true" onPointerDown={startDrag} />
      </div>
      <figcaption className="row small">
        <label>
          Width{' '}
          <input
            className="input editor-size"
            aria-label={`${alt} width`}
            type="number"
            min={MIN_IMAGE_WIDTH}
            value={px(width) ?? ''}
            placeholder={String(px(DEFAULT_IMAGE_WIDTH))}
            onChange={(e) => onResize(e.target.value ? `${Number(e.target.value)}px` : DEFAULT_IMAGE_WIDTH, height)}
            onBlur={() => (px(width) ?? MIN_IMAGE_WIDTH) < MIN_IMAGE_WIDTH && onResize(`${MIN_IMAGE_WIDTH}px`, height)}
          />
        </label>
        <label>
          Height{' '}
          <input
            className="input editor-size"
            aria-label={`${alt} height`}
            type="number"
            min={MIN_IMAGE_HEIGHT}
            value={px(height) ?? ''}
            placeholder={DEFAULT_IMAGE_HEIGHT}
            onChange={(e) => onResize(width, e.target.value ? `${Number(e.target.value)}px` : DEFAULT_IMAGE_HEIGHT)}
            onBlur={() =>
              (px(height) ?? MIN_IMAGE_HEIGHT) < MIN_IMAGE_HEIGHT && onResize(width, `${MIN_IMAGE_HEIGHT}px`)
            }
          />
        </label>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onRemove}>
          Remove image
        </button>
      </figcaption>
    </figure>
  );
}
