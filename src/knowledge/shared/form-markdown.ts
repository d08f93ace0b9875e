import type { BuildForm, FormModel, HowToForm } from './form-model';

/** Shared markdown helpers for the form generators. */

const clean = (s: string) => s.replace(/\r\n?/g, '\n').trim();

/** A table cell: one line, pipes escaped. */
export const cell = (s: string) => clean(s).replace(/\n+/g, ' ').replace(/\|/g, '\\|');

/** "**Label:** value" or nothing for an empty value. */
export const labelled = (label: string, value: string) => (clean(value) ? `**${label}:** ${clean(value)}` : '');

/** An image as markdown; a size comment before it when sized (the server renderer honours it). */
export function imageMarkdown(path: string, alt: string, size?: { width: string; height: string }): string {
  const img = `![${alt.replace(/[[\]\n]/g, ' ').trim()}](${path})`;
  return size ? `<!-- width=${size.width} height=${size.height} -->\n${img}` : img;
}

/** A fenced code block whose fence cannot clash with the content. */
export function fenced(code: string, lang = 'bash'): string {
  const fence = code.includes('```') ? '~~~~' : '```';
  return `${fence}${lang}\n${clean(code)}\n${fence}`;
}

/** Joins blocks with blank lines, skipping empty ones. */
export const blocks = (...parts: (string | false | null | undefined)[]) =>
  parts.filter((p) => typeof p === 'string' && p.trim() !== '').join('\n\n');

const bullets = (items: string[], prefix = '- ') =>
  items
    .map(clean)
    .filter(Boolean)
    .map((t) => `${prefix}${t.replace(/\n/g, ' ')}`)
    .join('\n');

/** Markdown of a how-to guide form (regenerated on every change). */
export function howToMarkdown(form: HowToForm, title = ''): string {
  const steps = form.steps.map((s, i) =>
    blocks(
      `### Step ${i + 1}${clean(s.title) ? `: ${clean(s.title).replace(/\n/g, ' ')}` : ''}`,
      clean(s.description),
      s.image && imageMarkdown(s.image, `Step ${i + 1}`, { width: s.imageWidth, height: s.imageHeight }),
    ),
  );
  const tips = bullets(form.tips);
  return (
    blocks(
      `# ${clean(title) || 'How-To Guide'}`,
      '## Purpose',
      clean(form.purpose) || '_Describe what this guide achieves._',
      '## Prerequisites',
      [
        labelled('Access Required', form.accessRequired),
        labelled('Tools Needed', form.toolsNeeded),
        labelled('Dependencies', form.dependencies),
      ]
        .filter(Boolean)
        .join('\n\n') || '_None._',
      '## Steps',
      ...steps,
      tips && '## Tips',
      tips,
    ) + '\n'
  );
}

/** Markdown of a server build document form (regenerated on every change). */
export function buildMarkdown(form: BuildForm, title = ''): string {
  const info = [
    ['Server Name', form.serverName],
    ['Build Engineer', form.buildEngineer],
    ['Environment', form.environment],
    ['Server Type', form.serverType],
    ['OS Version', form.osVersion],
  ];
  const steps = form.buildSteps.map((s, i) => {
    const actions = s.actions
      .map(clean)
      .filter(Boolean)
      .map((a, j) => `${j + 1}. ${a.replace(/\n/g, ' ')}`)
      .join('\n');
    const shots = s.screenshots.filter(Boolean).map((p, j) => imageMarkdown(p, `Step ${i + 1} screenshot ${j + 1}`));
    return blocks(
      `### Step ${i + 1}${clean(s.title) ? `: ${clean(s.title).replace(/\n/g, ' ')}` : ''}`,
      labelled('Objective', s.objective),
      actions && `**Actions:**\n\n${actions}`,
      clean(s.commands) && `**Commands:**\n\n${fenced(s.commands)}`,
      labelled('Expected Result', s.expectedResult),
      shots.length > 0 && `**Screenshots:**\n\n${shots.join('\n\n')}`,
    );
  });
  const list = (heading: string, items: string[], prefix: string) => {
    const body = bullets(items, prefix);
    return body ? `## ${heading}\n\n${body}` : '';
  };
  return (
    blocks(
      `# ${clean(title) || `Server Build Document${clean(form.serverName) ? `: ${cell(form.serverName)}` : ''}`}`,
      '## Server Information',
      ['| Field | Value |', '| --- | --- |', ...info.map(([k, v]) => `| ${k} | ${cell(v) || '-'} |`)].join('\n'),
      '## Build Overview',
      [
        labelled('Server Purpose', form.serverPurpose),
        labelled('Key Services', form.keyServices),
        labelled('Network Requirements', form.networkRequirements),
        labelled('Storage Requirements', form.storageRequirements),
      ]
        .filter(Boolean)
        .join('\n\n') || '_Not described yet._',
      '## Prerequisites',
      [
        labelled('Access Required', form.accessRequired),
        labelled('Tools Needed', form.toolsNeeded),
        labelled('Dependencies', form.dependencies),
      ]
        .filter(Boolean)
        .join('\n\n') || '_None._',
      '## Build Steps',
      ...steps,
      list('Post-Build Tasks', form.postBuildTasks, '- [ ] '),
      list('Troubleshooting Notes', form.troubleshootingNotes, '- '),
      list('Completion Checklist', form.completionChecklist, '- [ ] '),
    ) + '\n'
  );
}

/** The content generated from a form (how-to and build items): regenerated on every change. */
export function contentOf(form: FormModel, title: string): string {
  return form.kind === 'howto' ? howToMarkdown(form, title) : buildMarkdown(form, title);
}
