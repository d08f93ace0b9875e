/** Living documentation (issue 23): what other features use of server–document links and review flags. */
export { clearReviewFlags, reviewFlagsOf, reviewFlagsOfMany } from './flags';
export { linkedServersOf, linkedServersOfMany } from './links';
export { fillServerPlaceholders } from './placeholder-servers';
export { type FilledContent, hidePlaceholders } from './placeholders';
export { SERVERS_PANEL_ID, ServersPanel } from './views/ServersPanel';
