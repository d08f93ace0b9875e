/** Labels shared by server views and islands (no zod here, so islands stay small). */

/** The type filter on /knowledge-base (spec: All Types, Knowledge Base, Work Instructions, How-To Guides, Build Documents). */
export const kbTypes = ['knowledge-base', 'work-instruction', 'how-to-guide', 'build-document'] as const;
export type KbType = (typeof kbTypes)[number];
export const kbTypeLabels: Record<KbType, string> = {
  'knowledge-base': 'Knowledge Base',
  'work-instruction': 'Work Instruction',
  'how-to-guide': 'How-To Guide',
  'build-document': 'Build Document',
};
export const kbTypeFilterLabels: Record<KbType, string> = {
  'knowledge-base': 'Knowledge Base',
  'work-instruction': 'Work Instructions',
  'how-to-guide': 'How-To Guides',
  'build-document': 'Build Documents',
};

/** The kind of a knowledge item, from its templateType. */
export function kbTypeOf(templateType: string | null | undefined): KbType {
  if (templateType === 'work_instruction') return 'work-instruction';
  if (templateType === 'how_to_guide') return 'how-to-guide';
  if (templateType === 'build_document') return 'build-document';
  return 'knowledge-base';
}
