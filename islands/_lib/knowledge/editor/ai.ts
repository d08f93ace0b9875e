import { api } from '../../api';
import { toast } from '../../toast';

export type AiField = 'title' | 'excerpt' | 'purpose';

export interface EnhancedContent {
  improvedContent: string;
  suggestedTitle?: string;
  extractedTags?: string[];
  summary?: string;
}

/** POST /api/ai/enhance-content; toasts "Content Enhanced" or the failure text. Null on failure. */
export async function enhanceContent(
  title: string,
  content: string,
  category: string,
): Promise<EnhancedContent | null> {
  try {
    const result = await api<EnhancedContent>('POST', '/api/ai/enhance-content', { title, content, category });
    toast('Content Enhanced', 'The content was improved with AI.');
    return result;
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
    toast('Content Enhanced', `The ${fieldType} was improved with AI.`);
    return enhancedContent;
  } catch {
    toast(`Failed to enhance ${fieldType}. Please try again.`, undefined, 'error');
    return null;
  }
}
