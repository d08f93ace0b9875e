/** Living documentation (issue 23): what other features use of server–document links and review flags. */
export { clearReviewFlags, reviewFlagsOf, reviewFlagsOfMany } from './flags';
export { linkedServersOf, linkedServersOfMany } from './links';
export { changedBy, flagServerChange, flagServerDeletion, identityChanges, type ChangedBy } from './raise-flags';
export { describeServerChange, flagWords } from './flag-texts';
export { linkItemServers, retypeItemLinks, setItemServers, type LinkedItem, type ServerLinkChange } from './item-links';
export { serversMentionedFor, serversMentionedIn } from './mentions';
export { itemServersInput } from './schemas';
export { buildDocumentFor } from './build-document';
export { editorPrefillFor, type EditorPrefill } from './prefill';
export { LINK_SEARCH_LIMIT, linkCandidates, type LinkCandidate } from './link-search';
export { fillServerPlaceholders } from './placeholder-servers';
export { type FilledContent, hidePlaceholders } from './placeholders';
