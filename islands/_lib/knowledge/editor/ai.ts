import type { EnhancedContent } from '../../../../src/knowledge/shared';
import { api } from '../../api';
import { toast } from '../../toast';

export type AiField = 'title' | 'excerpt' | 'purpose';

/** POST /api/ai/enhance-content; null (with the spec's failure toast) on failure. Nothing is applied here. */
export async function enhanceContent(
  title: string,
  content: string,
  category: string,
): Promise<EnhancedContent | null> {
  try {
    return await api<EnhancedContent>('POST', '/api/ai/enhance-content', { title, content, category });
  } catch {
    toast('Enhancement Failed', 'Failed to enhance content with AI. Please try again.', 'error');
    return null;
  }
}

/** POST /api/ai/enhance-field; null (with the spec's toast) when it failed or changed nothing. */
export async function enhanceField(fieldType: AiField, content: string, category: string): Promise<string | null> {
  try {
    const { enhancedContent } = await api<{ enhancedContent: string }>('POST', '/api/ai/enhance-field', {
      fieldType,
      content,
      category,
    });
    if (!enhancedContent?.trim() || enhancedContent.trim() === content.trim()) {
      toast('No Enhancement', `AI couldn't improve the ${fieldType} further.`, 'info');
      return null;
    }
    return enhancedContent;
  } catch {
    toast(`Failed to enhance ${fieldType}. Please try again.`, undefined, 'error');
    return null;
  }
}
