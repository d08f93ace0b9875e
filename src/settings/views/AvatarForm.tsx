import { Avatar, Field } from '../../ui/components';

export interface AvatarFormProps {
  name: string;
  imageUrl: string | null;
  error?: string;
}

/** Change Avatar: the current picture (or initials), a file to upload (no JavaScript needed), and Remove. */
export function AvatarForm({ name, imageUrl, error }: AvatarFormProps) {
  return (
    <div className="row settings-avatar">
      <Avatar imageUrl={imageUrl} initials={name.charAt(0).toUpperCase()} large />
      <form method="post" action="/settings/avatar" encType="multipart/form-data" className="row">
        <Field
          label="Change Avatar"
          htmlFor="settings-avatar"
          error={error}
          hint="PNG, JPEG, GIF or WebP, at most 2 MB."
        >
          <input
            id="settings-avatar"
            className="input"
            type="file"
            name="avatar"
            accept="image/png,image/jpeg,image/gif,image/webp"
            required
            aria-invalid={error ? true : undefined}
          />
        </Field>
        <button type="submit" className="btn btn--secondary btn--sm">
          Upload
        </button>
      </form>
      {imageUrl && (
        <form method="post" action="/settings/avatar/remove">
          <button type="submit" className="btn btn--ghost btn--sm">
            Remove
          </button>
        </form>
      )}
    </div>
  );
}
