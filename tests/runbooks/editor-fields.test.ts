import { describe, expect, it } from 'vitest';
import { emptyBuild, initialFields, payloadOf, prefilledFields } from '../../src/knowledge/shared';

/** Issue 23 in the editor's model: a new item pre-filled from a server, and the linked servers in the Save body. */

describe('prefilledFields', () => {
  it('without a prefill is the new item of its kind', () => {
    expect(prefilledFields('work-instruction', undefined)).toEqual(initialFields(null, 'work-instruction'));
  });

  it('takes the pre-filled fields over the defaults', () => {
    const fields = prefilledFields('work-instruction', { title: 'Restart web1', tags: ['web1'] });
    expect(fields).toMatchObject({ title: 'Restart web1', tags: ['web1'], category: 'sop' });
  });

  it('a pre-filled build form writes its markdown (with the title) unless content is given too', () => {
    const form = { ...emptyBuild(), serverName: 'web1', environment: 'Production' };
    const fields = prefilledFields('build-document', { title: 'Build web1', form });
    expect(fields.form).toEqual(form);
    expect(fields.content).toContain('web1');
    expect(fields.content).not.toBe(initialFields(null, 'build-document').content);
    expect(prefilledFields('build-document', { form, content: 'As given.' }).content).toBe('As given.');
  });
});

describe('payloadOf', () => {
  const fields = { ...initialFields(null, 'knowledge-base'), title: 'T', content: 'C' };
  it('sends serverIds only when given', () => {
    expect(payloadOf(fields, 3)).not.toHaveProperty('serverIds');
    expect(payloadOf(fields, 3, ['a', 'b'])).toMatchObject({ version: 3, serverIds: ['a', 'b'] });
    expect(payloadOf(fields, 3, [])).toMatchObject({ serverIds: [] });
  });
});
