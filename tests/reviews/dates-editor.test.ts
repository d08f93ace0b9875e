import { describe, expect, it } from 'vitest';
import { documentInput } from '../../src/knowledge/schemas';
import { initialFields, payloadOf, reviewIntervalPayload } from '../../src/knowledge/shared';

/** The editor's "Review every N days" field (issue 22): what it sends for each state of the field. */
describe('review interval in the editor', () => {
  it('leaves the interval out of a new item when empty (the type default applies), clears it on an existing one', () => {
    expect(reviewIntervalPayload('', true)).toEqual({});
    expect(reviewIntervalPayload(undefined, true)).toEqual({});
    expect(reviewIntervalPayload('  ', false)).toEqual({ reviewIntervalDays: null });
    expect(reviewIntervalPayload('90', true)).toEqual({ reviewIntervalDays: 90 });
    expect(reviewIntervalPayload('abc', false)).toEqual({});
  });

  it("starts from the item's interval and sends a body the API accepts", () => {
    const fields = initialFields(
      {
        id: 'x',
        title: 'T',
        content: 'C',
        excerpt: null,
        technology: null,
        domain: null,
        category: null,
        tags: [],
        isPublished: false,
        isTemplate: false,
        templateType: null,
        attachedImages: [],
        formModel: null,
        version: 3,
        updatedAt: new Date().toISOString(),
        reviewIntervalDays: 180,
      },
      'document',
    );
    expect(fields.reviewInterval).toBe('180');
    const body = payloadOf({ ...fields, reviewInterval: '365' }, 3);
    expect(body.reviewIntervalDays).toBe(365);
    expect(documentInput.safeParse(body).success).toBe(true);
    expect(payloadOf({ ...fields, reviewInterval: '' }, 3).reviewIntervalDays).toBeNull();
    expect('reviewIntervalDays' in payloadOf(initialFields(null, 'document'), null)).toBe(false);
    expect(documentInput.safeParse({ ...body, reviewIntervalDays: 0 }).success).toBe(false);
  });
});
