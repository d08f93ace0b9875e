/** Living documentation (issue 23): what other features use of server–document links and review flags. */
export { clearReviewFlags, reviewFlagsOf, reviewFlagsOfMany } from './flags';
export { linkedServersOf, linkedServersOfMany } from './links';
export { changedBy, flagServerChange, flagServerDeletion } from './raise-flags';
export { flagWords } from './flag-texts';
export { linkItemServers, retypeItemLinks, setItemServers } from './item-links';
export { serversMentionedFor, serversMentionedIn } from './mentions';
export { itemServersInput } from './schemas';
export { buildDocumentFor } from './build-document';
export { editorPrefillFor, type EditorPrefill } from './prefill';
export { linkCandidates, type LinkCandidate } from './link-search';
export { fillServerPlaceholders } from './placeholder-servers';
export { type FilledContent, hidePlaceholders } from './placeholders';
