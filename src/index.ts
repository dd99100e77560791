/**
 * jev-mem: long-term memory for AI agents that runs on the client (browser, extension, Cloudflare
 * Worker, Node). Every export that runs everywhere is named here; platform pieces live in their
 * own entries, so an app bundles only what it references: `jev-mem/node` (files, Node worker),
 * `jev-mem/browser` (IndexedDB, Web Worker, bundled models), `jev-mem/browser/onnx`
 * (onnxruntime-web engine), `jev-mem/transformers` (transformers.js encoder), `jev-mem/edge`.
 *
 * @module
 */

// the memory
export { createMemory, DEFAULT_ANSWER_KEEP_TOP, DEFAULT_ANSWER_MIN_SCORE, DEFAULT_LIST_LIMIT, LIST_SCAN_LIMIT, MAX_HISTORY, MAX_LIST_LIMIT, RESERVED_METADATA_KEYS } from './memory.js';
export type {
  AddManyOptions,
  AddOptions,
  AddResult,
  AnswerOptions,
  AnswerStreamEvent,
  ChatMessageInput,
  CallOptions,
  FilterLiteral,
  FilterOperators,
  ImportOptions,
  ImportProgress,
  ImportResult,
  ListedMemory,
  ListOptions,
  ListPage,
  Memory,
  MemoryAnswer,
  MemoryFilter,
  MemoryScope,
  MemoryOptions,
  MemoryStats,
  RecallOptions,
  RecallResult,
  ResetOptions,
  WriteDecisions,
  WriteProgress,
} from './memory.js';
export { consoleLogger, silentLogger } from './util/logger.js';
export type { LogEntry, Logger, LogLevel } from './util/logger.js';
export { DEFAULT_PARAMETERS, MAX_RECALL_K, resolveParameters } from './config.js';
export type { MemoryParameters } from './config.js';
export { ERROR_CODES, JevMemError, isJevMemError } from './errors.js';
export type { JevMemErrorCode, JevMemErrorDetails } from './errors.js';
export { VIEWS } from './types.js';
export type {
  EdgeOrigin,
  EdgeSubtype,
  MemoryEdge,
  MemoryNode,
  MemoryTypes,
  NodeStatus,
  Observation,
  Provenance,
  RecalledMemory,
  StoredEmbedding,
  TimeRef,
  View,
} from './types.js';

// memory plane
export type { Checkpoint, NamespaceCounts, NamespaceSnapshot, StorageAdapter, WriteBatch } from './plane/store/storage.js';
export { CHANGE_META_KEY } from './plane/store/storage.js';
export { CHECKPOINT_FORMAT, EDGE_CACHE_SIZE, NODE_CACHE_SIZE } from './plane/resident/namespace.js';
export type { OpenReport } from './plane/resident/namespace.js';
export { decodeVector, encodeVector, quantizeVector } from './plane/indexes/vector-codec.js';
export type { IndexHit, LexicalDoc, LexicalIndex, VectorIndex } from './plane/indexes/indexes.js';
export { createMemoryStorage } from './plane/store/memory-storage.js';
export { createLexicalIndex } from './plane/indexes/lexical.js';
export { createFlatVectorIndex } from './plane/indexes/vector-flat.js';
export { createAnnVectorIndex, restoreAnnVectorIndex, type AnnVectorIndexOptions } from './plane/indexes/vector-ann.js';
export { createHnswVectorIndex } from './plane/indexes/vector-hnsw.js';
export { createVectorIndex } from './plane/indexes/vector-factory.js';
export { EXPORT_FORMAT, EXPORT_VERSION } from './plane/store/export.js';
export type { MemoryExport } from './plane/store/export.js';

// encoders
export type { AssetLoader, Encoder } from './encoder/encoder.js';
export { createGloveSifEncoder } from './encoder/glove-sif.js';
export { sharedEncoder } from './encoder/shared.js';
export type { GloveSifEncoderOptions } from './encoder/glove-sif.js';
export { createFetchAssetLoader } from './encoder/assets.js';

// read path
export type { RecallSwitches } from './read/recall.js';
export type { RecallTrace, TraceAnchor, TraceExpansion, TraceRound } from './read/trace.js';
export type { ScoreParts } from './read/score.js';
export type { StopEstimates, StopReason } from './read/stop.js';

// System One
export type {
  Answer,
  ChoiceAnswer,
  ChoiceQuestion,
  NoulAnswer,
  NoulQuestion,
  Question,
  ScoreAnswer,
  ScoreQuestion,
  SystemOneBackend,
  SystemOneRequest,
  SystemOneResponse,
} from './system-one/wire.js';
export { CATALOGUE, CATALOGUE_IDS, questionKey, parseQuestionKey } from './system-one/catalogue.js';
export type { CatalogueId } from './system-one/catalogue.js';
export type { DecisionRecord } from './system-one/controller.js';
export { createHeuristicSystemOne } from './system-one/heuristic.js';
export { createLocalSystemOne } from './system-one/local.js';
export type { LocalSystemOneOptions, OnnxRuntimeModule } from './system-one/local.js';
export { createRemoteSystemOne } from './system-one/remote.js';
export type { RemoteSystemOneOptions } from './system-one/remote.js';
export { validateRequest, validateResponse } from './system-one/validate.js';

// System Two
export { CHAT_COMPLETIONS_PATH, chatCompletionsUrl, createSystemTwo } from './system-two/client.js';
export { buildAnswerPrompt } from './system-two/prompt.js';
export type { AnswerRequest, ChatMessage, EvidenceItem, SystemTwo, SystemTwoOptions } from './system-two/types.js';

// input formats
export { parseJsonl, parseQuestions } from './formats/jsonl.js';
export { LOCOMO_CATEGORIES, LOCOMO_DEV, LOCOMO_TEST, locomoConversation, parseLocomo, parseEvidence } from './formats/locomo.js';
export type { LocomoConversation, LocomoQuestion, LocomoSample } from './formats/locomo.js';
export { isMemoryBankHistory, MEMORYBANK_AI_SPEAKER, parseMemoryBank, parseMemoryBankProbes } from './formats/memorybank.js';
export type { MemoryBankUser } from './formats/memorybank.js';
export { isLongMemEval, LONGMEMEVAL_TYPES, parseLongMemEval } from './formats/longmemeval.js';
export type { LongMemEvalHistory } from './formats/longmemeval.js';
