import { sweepImports } from '../src/imports/service';
import { defineJob } from './define-job';

/** Import jobs: resumes those a stopped process left (at the first file not done), gives up stuck ones, tidies up. */
export const importJobsJob = defineJob({
  name: 'import-jobs',
  title: 'Import jobs',
  schedule: (config) => config.schedules.imports,
  async run({ db, logger, signal }) {
    const r = await sweepImports(db, logger, signal);
    return `Resumed ${r.resumed}, gave up ${r.failed}, forgot ${r.forgotten} old previews and reports.`;
  },
});
