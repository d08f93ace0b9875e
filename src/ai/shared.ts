/** Ops AI constants shared by server and islands (plain values: no zod, so islands stay small). */

export const HISTORY_LIMIT = 5;
/** The writing tools refuse content above this many characters (413). */
export const MAX_CONTENT_CHARS = 1_000_000;
/** Spec: the Auto Create counter shows characters out of 5000 (not enforced). */
export const AUTO_CREATE_COUNTER = 5000;
/** The writing tools send the model at most this much text (the counter's figure); longer text gets the built-in processing. */
export const MODEL_CONTENT_CHARS = AUTO_CREATE_COUNTER;

/**
 * A chat answer is cut at this many characters (stored and returned): the chat sends answers back as
 * conversation history, whose messages may hold at most 20,000 characters (schemas.ts).
 */
export const MAX_ANSWER_CHARS = 20_000;

/** The model may stay silent this long: before its response starts, and between streamed chunks. */
export const LLM_IDLE_TIMEOUT_MS = 30_000;
/** One question's whole answer (every model round and tool call) must be done within this. */
export const LLM_ANSWER_DEADLINE_MS = 90_000;
/** Tool calls run per model round (more are dropped); the model is told so. */
export const MAX_TOOL_CALLS_PER_ROUND = 5;
/** Characters of tool results sent back to the model per question (~25k tokens). */
export const MAX_TOOL_RESULT_CHARS = 100_000;
/** The answer stream sends an SSE comment this often, so the browser can tell a slow answer from a dead one. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** The browser drops a streamed answer after this long without a byte (three heartbeats missed), then asks again without streaming. */
export const CHAT_STREAM_IDLE_MS = 45_000;
/** The browser gives up on the standard call after this (the server's own 504 comes first). */
export const CHAT_ASK_TIMEOUT_MS = LLM_ANSWER_DEADLINE_MS + 15_000;

export const BLANK_CONTENT_MESSAGE = 'Please enter some text content to convert into a knowledge base document.';
export const TOO_LARGE_MESSAGE = 'Images are too large. Please use smaller images or fewer images.';

/** Spec (knowledge §5): the categories offered, as the knowledge base lists them. */
export { CATEGORIES as categories } from '../knowledge/shared';

/** Spec §4: welcome actions on the page (six) and in the floating panel (four). */
export const pageWelcomeActions = [
  'Show all servers',
  'View recent documentation',
  'Check server status',
  'Browse knowledge base',
  'List all server IPs',
  'View infrastructure overview',
];
export const panelWelcomeActions = pageWelcomeActions.slice(0, 4);
export const WELCOME_TEXT =
  "Welcome to Ops AI! I'm your intelligent infrastructure assistant. How can I help you today?";

/** Spec §4: actions that navigate. */
export const navigateActions: Record<string, string> = {
  'View all servers': '/infrastructure',
  'Show all servers': '/infrastructure',
  'Browse knowledge base': '/knowledge-base',
  'View recent documentation': '/knowledge-base',
  'Search documentation': '/knowledge-base',
  // The spec says /dashboard; the dashboard lives at / (no /dashboard route), so go there.
  'View infrastructure overview': '/',
};

/** Spec §4: actions that fill the input and send after 100 ms. */
export const queryActions: Record<string, string> = {
  'Show Auburn servers': 'Show me all servers in Auburn location',
  'List all POS servers': 'List all POS servers with their details',
  'Check server status': 'Show me the status of all active servers',
  'Show network topology': 'Show me the network configuration and topology',
  'List all server IPs': 'List all servers with their IP addresses',
  'View location details': 'Show me servers grouped by location',
  'View POS documentation': 'Show me POS-related documentation',
  'View recent issues': 'Show me recent server issues and problems',
  'Check system logs': 'Show me recent system logs and events',
  'Contact support team': 'Who are the support team contacts?',
};

/** Issue 26: a conversation's title is its first question, cut to this many characters. */
export const CONVERSATION_TITLE_CHARS = 80;
/** "Recent conversations" on /ai lists this many, newest first. */
export const RECENT_CONVERSATIONS = 20;
/** A conversation's page: read-only, and the link its owner shares. */
export const conversationHref = (id: string) => `/ai/c/${id}`;

/** The first question as a conversation's title: one line, cut on a word with an ellipsis. */
export function conversationTitle(query: string): string {
  const line = query.replace(/\s+/g, ' ').trim();
  if (line.length <= CONVERSATION_TITLE_CHARS) return line;
  const cut = line.slice(0, CONVERSATION_TITLE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > CONVERSATION_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
