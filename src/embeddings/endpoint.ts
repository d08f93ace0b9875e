import OpenAI from 'openai';
import type { Config } from '../config';
import type { Logger } from '../http/logger';

/**
 * The embeddings endpoint this process uses (EMBEDDINGS_BASE_URL, any OpenAI-compatible `/embeddings`): set once at
 * start-up by the web app and the worker from their configuration, read by search, the assistant's tools and MCP
 * (which take no configuration of their own). None set: full-text search only.
 */

export type EmbeddingsConfig = NonNullable<Config['embeddings']>;

export interface Embedder {
  model: string;
  minSimilarity: number;
  /** Unit vectors for `texts`, in order; throws EmbeddingsError. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** The question's vector, or null (and a warning logged) when the endpoint fails or is slower than its timeout. */
  embedQuery(text: string): Promise<number[] | null>;
}

export class EmbeddingsError extends Error {
  /** True when the endpoint refused this input (4xx): trying the same text again will not help. */
  constructor(
    message: string,
    readonly refusedInput: boolean,
  ) {
    super(message);
  }
}

/** Texts sent in one request (Ollama and vLLM take batches; OpenAI up to 2,048). */
export const BATCH_SIZE = 32;
/** After a failed question, searches skip the endpoint this long (full text only) instead of each waiting on it. */
const PAUSE_AFTER_FAILURE_MS = 30_000;
/** Recent questions' vectors kept (search-as-you-type asks the same words again). */
const QUERY_CACHE_SIZE = 200;
/** A batch of item texts may take this long (the job's requests, not a person's). */
const BATCH_TIMEOUT_MS = 60_000;

const unit = (v: number[]): number[] => {
  const length = Math.hypot(...v);
  return length > 0 ? v.map((x) => x / length) : v;
};

function failure(err: unknown): EmbeddingsError {
  if (err instanceof OpenAI.APIError && err.status && err.status >= 400 && err.status < 500 && err.status !== 429) {
    return new EmbeddingsError(`The embeddings endpoint refused the text (${err.status}): ${err.message}`, true);
  }
  return new EmbeddingsError(`The embeddings endpoint failed: ${(err as Error).message}`, false);
}

export function createEmbedder(config: EmbeddingsConfig, logger: Logger): Embedder {
  const client = new OpenAI({ apiKey: config.apiKey ?? 'none', baseURL: config.baseUrl, maxRetries: 0 });
  const cache = new Map<string, number[]>();
  let pausedUntil = 0;

  async function embed(texts: string[], signal?: AbortSignal, timeout = BATCH_TIMEOUT_MS): Promise<number[][]> {
    if (!texts.length) return [];
    let data: { index: number; embedding: number[] }[];
    try {
      const res = await client.embeddings.create(
        { model: config.model, input: texts, encoding_format: 'float' },
        { signal, timeout },
      );
      data = res.data;
    } catch (err) {
      throw failure(err);
    }
    const vectors = [...data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    if (vectors.length !== texts.length || vectors.some((v) => !Array.isArray(v) || !v.length)) {
      throw new EmbeddingsError('The embeddings endpoint answered a different number of vectors.', false);
    }
    return vectors.map(unit);
  }

  async function embedQuery(text: string): Promise<number[] | null> {
    const key = text.trim().toLowerCase();
    const cached = cache.get(key);
    if (cached) return cached;
    if (Date.now() < pausedUntil) return null;
    try {
      const [vector] = await embed([key], undefined, config.queryTimeoutMs);
      if (cache.size >= QUERY_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(key, vector);
      return vector;
    } catch (err) {
      pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
      logger.warn(
        { err: (err as Error).message, pauseMs: PAUSE_AFTER_FAILURE_MS },
        'Embeddings endpoint failed: searching by full text only',
      );
      return null;
    }
  }

  return { model: config.model, minSimilarity: config.minSimilarity, embed, embedQuery };
}

let current: Embedder | null = null;

/** Sets (or, with no configuration, clears) this process's endpoint. */
export function setEmbeddingsEndpoint(config: EmbeddingsConfig | undefined, logger: Logger): void {
  current = config ? createEmbedder(config, logger) : null;
}

/** This process's endpoint, or null when retrieval by meaning is off. */
export const embedder = (): Embedder | null => current;
