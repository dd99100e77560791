/**
 * Stand-in for modules that cannot run in workerd (SPEC 9: onnxruntime-web and hnswlib-wasm
 * compile WebAssembly from bytes at run time; fake-indexeddb is for Node). wrangler.toml
 * `[alias]` points their specifiers here, so they are never bundled into the Worker; their
 * lazy `import()` rejects, and the callers' documented fallbacks apply (`vectorIndex: 'auto'`
 * falls back to `flat`; System One's `'onnx'` engine answers `MODEL_LOAD_FAILED`, use `'ts'`).
 *
 * @module
 */
throw new Error('this module is not available in Cloudflare Workers (SPEC 9: no WebAssembly compiled from bytes, no IndexedDB); jev-mem/edge uses the flat vector index and the TypeScript System-One kernels');
