/** What one import may hold (issue 25). An upload over a limit is refused at once, before any job starts. */
export const LIMITS = {
  /** Bytes of one upload (the files, or the one zip). */
  uploadBytes: 50 * 1024 * 1024,
  /** Files in one upload (zip entries or uploaded files; folders do not count). */
  files: 2_000,
  /**
   * What a zip may unpack to in all, by its declared sizes, and what one upload (or one run of its job) may inflate
   * in all: every byte inflated counts, an entry read twice twice.
   */
  unpackedBytes: 200 * 1024 * 1024,
  /** Above this size an entry compressed more than `ratio`:1 is taken for a zip bomb. */
  ratioFloorBytes: 1024 * 1024,
  ratio: 100,
  /** One Markdown file (larger ones are listed as errors). */
  markdownBytes: 5 * 1024 * 1024,
  /** One image, as an uploaded image's (objects feature). */
  imageBytes: 10 * 1024 * 1024,
  /** Uploads one process reads and plans at once (each holds up to `uploadBytes` and unpacks); more answer 503. */
  concurrentUploads: 2,
} as const;

/** Uploads per user and hour, dry runs included (each one unpacks and reads every file). */
export const IMPORT_RATE = { limit: 20, windowSeconds: 3600 } as const;

/** "50 MB" */
export const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
