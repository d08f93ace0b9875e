import { describe, expect, it } from 'vitest';
import {
  buildMarkdown,
  emptyBuild,
  emptyBuildStep,
  emptyHowTo,
  emptyHowToStep,
  howToMarkdown,
  imageMarkdown,
  parseFormModel,
  removeBuildStep,
  removeHowToStep,
  removeOrReset,
  removeTip,
  skeletonFor,
} from '../../src/knowledge/shared';
import { renderMarkdown } from '../../src/markdown/render';

describe('how-to guide markdown', () => {
  it('writes purpose, prerequisites, numbered steps with sized screenshots, and tips', () => {
    const form = {
      ...emptyHowTo(),
      purpose: 'Reset a user password in AD.',
      accessRequired: 'Domain admin',
      toolsNeeded: 'ADUC',
      steps: [
        { ...emptyHowToStep(), title: 'Open ADUC', description: 'Start > ADUC', image: '/objects/abc' },
        {
          ...emptyHowToStep(),
          title: 'Find the user',
          description: '',
          image: '/objects/def',
          imageWidth: '150px',
          imageHeight: '90px',
        },
      ],
      tips: ['Tell the user to change it', ''],
    };
    const md = howToMarkdown(form, 'Password reset');
    expect(md).toContain('# Password reset');
    expect(md).toContain('## Purpose\n\nReset a user password in AD.');
    expect(md).toContain('**Access Required:** Domain admin');
    expect(md).toContain('**Tools Needed:** ADUC');
    expect(md).not.toContain('Dependencies:');
    expect(md).toContain(
      '### Step 1: Open ADUC\n\nStart > ADUC\n\n<!-- width=300px height=auto -->\n![Step 1](/objects/abc)',
    );
    expect(md).toContain('### Step 2: Find the user\n\n<!-- width=150px height=90px -->\n![Step 2](/objects/def)');
    expect(md).toContain('## Tips\n\n- Tell the user to change it');
    expect(md.indexOf('Step 1')).toBeLessThan(md.indexOf('Step 2'));
  });

  it('renders on the server with the image at 300px wide by default', () => {
    const form = {
      ...emptyHowTo(),
      steps: [{ ...emptyHowToStep(), title: 'Shot', image: '/objects/11111111-1111-4111-8111-111111111111' }],
    };
    const html = renderMarkdown(howToMarkdown(form, 'T'));
    expect(html).toMatch(/<img src="\/objects\/11111111-1111-4111-8111-111111111111" alt="Step 1" width="300"/);
  });

  it('leaves out empty tips but always has the steps section', () => {
    const md = howToMarkdown(emptyHowTo());
    expect(md).toContain('## Steps');
    expect(md).toContain('### Step 1');
    expect(md).not.toContain('## Tips');
  });
});

describe('build document markdown', () => {
  it('writes server info as a table, overview, steps with actions, commands and screenshots, and the lists', () => {
    const form = {
      ...emptyBuild(),
      serverName: 'web|01',
      buildEngineer: 'Ada',
      osVersion: 'Ubuntu 24.04 LTS',
      serverPurpose: 'Hosts the intranet',
      buildSteps: [
        {
          ...emptyBuildStep(1),
          title: 'Install OS',
          objective: 'Base image',
          actions: ['Boot ISO', '', 'Partition'],
          commands: 'apt update\napt upgrade -y',
          expectedResult: 'Login prompt',
          screenshots: ['/objects/s1'],
        },
        emptyBuildStep(2),
      ],
      postBuildTasks: ['Add to monitoring'],
      troubleshootingNotes: [''],
      completionChecklist: ['Backups configured', 'Patched'],
    };
    const md = buildMarkdown(form, 'Build: web01');
    expect(md).toContain('# Build: web01');
    expect(md).toContain('| Server Name | web\\|01 |');
    expect(md).toContain('| Environment | Production |');
    expect(md).toContain('| Server Type | - |');
    expect(md).toContain('**Server Purpose:** Hosts the intranet');
    expect(md).toContain(
      '### Step 1: Install OS\n\n**Objective:** Base image\n\n**Actions:**\n\n1. Boot ISO\n2. Partition',
    );
    expect(md).toContain('**Commands:**\n\n```bash\napt update\napt upgrade -y\n```');
    expect(md).toContain('**Expected Result:** Login prompt');
    expect(md).toContain('![Step 1 screenshot 1](/objects/s1)');
    expect(md).toContain('### Step 2');
    expect(md).toContain('## Post-Build Tasks\n\n- [ ] Add to monitoring');
    expect(md).not.toContain('## Troubleshooting Notes');
    expect(md).toContain('## Completion Checklist\n\n- [ ] Backups configured\n- [ ] Patched');
    const html = renderMarkdown(md);
    expect(html).toContain('<table>');
    expect(html).toContain('<code class="language-bash">apt update');
  });

  it('titles an untitled build after the server and fences commands that contain backticks safely', () => {
    const md = buildMarkdown({
      ...emptyBuild(),
      serverName: 'db01',
      buildSteps: [{ ...emptyBuildStep(1), commands: 'echo ```' }],
    });
    expect(md).toContain('# Server Build Document: db01');
    expect(md).toContain('~~~~bash\necho ```\n~~~~');
  });
});

describe('list rules (spec §5)', () => {
  it('emptied action/task/note/checklist lists reset to one empty item', () => {
    expect(removeOrReset(['a', 'b'], 0)).toEqual(['b']);
    expect(removeOrReset(['a'], 0)).toEqual(['']);
  });
  it('a build document keeps at least one step and renumbers', () => {
    const steps = [emptyBuildStep(1), { ...emptyBuildStep(2), title: 'two' }, emptyBuildStep(3)];
    const left = removeBuildStep(steps, 0);
    expect(left.map((s) => [s.stepNumber, s.title])).toEqual([
      [1, 'two'],
      [2, ''],
    ]);
    expect(removeBuildStep([emptyBuildStep(1)], 0)).toHaveLength(1);
  });
  it('a how-to keeps one step; tips are removable only while more than one remains', () => {
    expect(removeHowToStep([emptyHowToStep()], 0)).toHaveLength(1);
    expect(removeHowToStep([emptyHowToStep(), emptyHowToStep()], 1)).toHaveLength(1);
    expect(removeTip(['only'], 0)).toEqual(['only']);
    expect(removeTip(['a', 'b'], 0)).toEqual(['b']);
  });
});

describe('form model round trip', () => {
  it('restores a saved how-to and build form, filling defaults for missing fields', () => {
    const howto = {
      ...emptyHowTo(),
      purpose: 'p',
      steps: [{ ...emptyHowToStep(), title: 's', image: '/objects/x' }],
      tips: ['t'],
    };
    expect(parseFormModel(JSON.parse(JSON.stringify(howto)))).toEqual(howto);
    const build = { ...emptyBuild(), serverName: 'web01', postBuildTasks: ['x'] };
    expect(parseFormModel(JSON.parse(JSON.stringify(build)))).toEqual(build);
    const partial = parseFormModel({ kind: 'howto', steps: [{ title: 'a' }] });
    expect(partial).toMatchObject({
      kind: 'howto',
      tips: [''],
      steps: [{ title: 'a', imageWidth: '300px', imageHeight: 'auto' }],
    });
    expect(parseFormModel({ kind: 'build', buildSteps: [] })).toMatchObject({
      buildSteps: [{ stepNumber: 1, actions: [''] }],
      completionChecklist: [''],
    });
    expect(parseFormModel(null)).toBeNull();
    expect(parseFormModel({ something: 1 })).toBeNull();
  });
});

describe('template skeletons (spec §4)', () => {
  it('fills a skeleton for every template type', () => {
    for (const t of [
      'server_setup',
      'network_config',
      'security_audit',
      'maintenance',
      'troubleshooting',
      'work_instruction',
      'how_to_guide',
      'general',
      'build_document',
    ] as const) {
      expect(skeletonFor(t).length, t).toBeGreaterThan(40);
      expect(skeletonFor(t)).toMatch(/^# /);
    }
    expect(skeletonFor('work_instruction')).toContain('## Procedure');
    expect(skeletonFor('how_to_guide')).toContain('## Steps');
    expect(skeletonFor('build_document')).toContain('## Server Information');
    expect(skeletonFor(null)).toBe('');
  });
});

describe('image markdown', () => {
  it('puts the size comment right before a sized image', () => {
    expect(imageMarkdown('/objects/a', 'x')).toBe('![x](/objects/a)');
    expect(imageMarkdown('/objects/a', 'x [y]', { width: '300px', height: 'auto' })).toBe(
      '<!-- width=300px height=auto -->\n![x  y](/objects/a)',
    );
  });
});
