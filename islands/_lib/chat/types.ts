/** Spec §3 chat message. */
export interface ChatMessage {
  id: string;
  type: 'user' | 'assistant';
  content: string;
  timestamp: Date;
  isStreaming?: boolean;
  suggestedActions?: string[];
}

export type ChatMode = 'page' | 'panel';
