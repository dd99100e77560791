/**
 * Sharing one encoder between several memories.
 *
 * @module
 */
import type { Encoder } from './encoder.js';

/**
 * A view of `inner` whose `close()` does nothing, for handing one loaded encoder to several
 * memories (a memory closes its encoder when it closes). Everything else is passed through,
 * including the optional `termVectors` (word vectors used by the read path's soft term matching,
 * SPEC 6): a wrapper that dropped it would silently rank worse.
 * @param inner - the encoder to share; close it yourself after the last memory using it.
 * @returns an {@link Encoder} with the same fingerprint, dimension, embeddings and word vectors.
 */
export function sharedEncoder(inner: Encoder): Encoder {
  const shared: Encoder = {
    fingerprint: inner.fingerprint,
    dimension: inner.dimension,
    embed: (texts, signal) => inner.embed(texts, signal),
    ...(inner.languages !== undefined ? { languages: inner.languages } : {}),
  };
  if (inner.termVectors) shared.termVectors = (words) => inner.termVectors!(words);
  return shared;
}
