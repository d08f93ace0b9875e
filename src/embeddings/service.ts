/** Retrieval by meaning (issue 26): what other features use. */
export { embeddingProgress, embedDueItems, type EmbeddingProgress, type EmbedRun } from './embed-items';
export { embedder, setEmbeddingsEndpoint } from './endpoint';
export { fuseHits } from './hybrid';
export { itemsByMeaning, type SimilarItem } from './similar';
