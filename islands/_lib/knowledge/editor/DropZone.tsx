import { useRef, useState, type ReactNode } from 'react';
import { toast } from '../../toast';
import { imageFilesOf, uploadImage } from './upload';

/** Uploads images one by one with the spec's toasts; returns the paths that made it. */
export async function uploadAll(files: File[]): Promise<string[]> {
  const paths: string[] = [];
  for (const file of files) {
    try {
      paths.push(await uploadImage(file));
    } catch {
      toast('Upload Error', 'Failed to upload screenshot. Please try again.', 'error');
      return paths;
    }
  }
  if (paths.length)
    toast('Image Uploaded', paths.length === 1 ? 'The image was uploaded.' : `${paths.length} images were uploaded.`);
  return paths;
}

interface Props {
  /** Called with uploaded image paths. */
  onUploaded: (paths: string[]) => void;
  className?: string;
  label?: string;
  children: ReactNode;
}

/**
 * Accepts images pasted or dropped into its children: a drop overlay while dragging files over it;
 * non-images are refused ("Invalid File - Please drop image files only."). Capture-phase handlers, so
 * an editor inside never sees the files.
 */
export function DropZone({ onUploaded, className = '', label, children }: Props) {
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const depth = useRef(0);

  async function handle(images: File[]) {
    setBusy(true);
    try {
      const paths = await uploadAll(images);
      if (paths.length) onUploaded(paths);
    } finally {
      setBusy(false);
    }
  }

  const hasFiles = (e: React.DragEvent) => [...e.dataTransfer.types].includes('Files');

  return (
    // biome-ignore lint/a11y/useSemanticElements: a <fieldset> brings its own border, padding and min-width
    <div
      className={`editor-drop ${className}`}
      role="group"
      aria-label={label}
      aria-busy={busy || undefined}
      onDragEnterCapture={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setDragging(true);
      }}
      onDragOverCapture={(e) => {
        if (hasFiles(e)) e.preventDefault();
      }}
      onDragLeaveCapture={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDropCapture={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.stopPropagation();
        depth.current = 0;
        setDragging(false);
        const { images, others } = imageFilesOf(e.dataTransfer);
        if (others.length || !images.length) toast('Invalid File', 'Please drop image files only.', 'error');
        if (images.length) void handle(images);
      }}
      onPasteCapture={(e) => {
        const { images } = imageFilesOf(e.clipboardData);
        if (!images.length) return;
        e.preventDefault();
        e.stopPropagation();
        void handle(images);
      }}
    >
      {children}
      {dragging && (
        <div className="editor-drop__overlay" aria-hidden="true">
          Drop images here
        </div>
      )}
      {busy && (
        <p className="editor-drop__busy muted small" role="status">
          Uploading image…
        </p>
      )}
    </div>
  );
}
