import { api } from '../../api';

/** True for files the editor accepts as images. */
export const isImage = (file: File) => file.type.startsWith('image/');

/**
 * Uploads one image: POST /api/objects/upload → {uploadURL}; PUT the bytes with their type;
 * PUT /api/objects/acl {imageURL, visibility: 'public'} → {objectPath}. Returns the objectPath.
 */
export async function uploadImage(file: File): Promise<string> {
  const { uploadURL } = await api<{ uploadURL: string }>('POST', '/api/objects/upload');
  const res = await fetch(uploadURL, {
    method: 'PUT',
    body: file,
    credentials: 'same-origin',
    headers: { 'Content-Type': file.type },
  });
  if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
  const { objectPath } = await api<{ objectPath: string }>('PUT', '/api/objects/acl', {
    imageURL: uploadURL,
    visibility: 'public',
  });
  return objectPath;
}

/** The image files of a paste or drop (null when it carries none). */
export function imageFilesOf(data: DataTransfer | null): { images: File[]; others: File[] } {
  const files = data ? [...data.files] : [];
  return { images: files.filter(isImage), others: files.filter((f) => !isImage(f)) };
}
