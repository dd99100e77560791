/**
 * `jev-mem/transformers`: the transformers.js sentence encoder. `@huggingface/transformers` is an
 * optional peer dependency (`npm i @huggingface/transformers`); only apps that import this entry
 * bundle it.
 *
 * @module
 */
export { createTransformersEncoder } from './encoder/transformers.js';
export type { TransformersEncoderOptions } from './encoder/transformers.js';
