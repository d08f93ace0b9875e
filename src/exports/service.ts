/** Export and print (issue 25): an item as markdown (or a zip with its images), a whole space as a streamed zip. */
export { itemExport, itemFileName, itemZip } from './item-export';
export { plainMarkdown, type PreparedItem } from './item-files';
export { EXPORT_PAGE_SIZE, exportSpace, spaceEntries, type SpaceExportFilters } from './space-export';
export { fileSlug, folderName } from './names';
export { frontMatterOf, imageIdsIn, itemMarkdown, rewriteImageLinks } from './markdown-file';
