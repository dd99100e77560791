/**
 * The memory host: answers {@link MemoryRequest}s with one memory that it opens once. It runs in
 * the offscreen document (offscreen.ts), but knows nothing of `chrome.*`: the memory is opened by
 * the function it is given, so tests can host a memory of their own.
 *
 * @module
 */
import type { Memory } from '../../../src/memory.js';
import { RECALL_K, toReplyError, type LoadTimings, type MemoryRequest, type ReplyError, type StatusValue } from './messages.js';

/** An opened memory and what to show about its System One. */
export interface HostedMemory {
  memory: Memory;
  systemOne: { modelId: string; engine: string; executionProviders: string[] };
}

/** Opens the memory; writes its load milestones into `timings` as they happen. */
export type OpenMemory = (timings: LoadTimings) => Promise<HostedMemory>;

/** A running host. */
export interface MemoryHost {
  /**
   * Answers one request (not `diagnostics`, which the offscreen document answers itself).
   * `status` answers at once unless `wait` is set; every other request waits for the memory.
   * @throws the memory's JevMemError (e.g. `INVALID_INPUT` for an empty query) or the load error.
   */
  handle(request: Exclude<MemoryRequest, { type: 'diagnostics' }>): Promise<unknown>;
}

/**
 * Starts opening the memory at once (the host exists because someone asked for it) and returns
 * the host. A failed load is kept: every later request fails with it, and `status` says `failed`.
 */
export function createMemoryHost(open: OpenMemory, now: () => number = () => performance.now()): MemoryHost {
  const timings: LoadTimings = {};
  let state: StatusValue['state'] = 'loading';
  let loadError: ReplyError | undefined;
  let hosted: HostedMemory | undefined;
  const ready: Promise<HostedMemory> = open(timings).then(
    (h) => {
      timings.readyMs = now();
      hosted = h;
      state = 'ready';
      return h;
    },
    (e: unknown) => {
      loadError = toReplyError(e);
      state = 'failed';
      throw e;
    },
  );
  ready.catch(() => undefined); // kept for the requests; not an unhandled rejection

  const nodes = async (m: Memory): Promise<number> => (await m.stats()).activeNodes;

  const status = async (): Promise<StatusValue> => {
    const out: StatusValue = { state, timings: { ...timings } };
    if (hosted !== undefined) {
      out.nodes = await nodes(hosted.memory);
      out.systemOne = hosted.systemOne;
      out.encoder = hosted.memory.encoder.fingerprint;
    }
    if (loadError !== undefined) out.error = loadError;
    return out;
  };

  return {
    async handle(request) {
      switch (request.type) {
        case 'status':
          if (request.wait === true) await ready.catch(() => undefined);
          return status();
        case 'save': {
          const { memory } = await ready;
          const result = await memory.add(request.observation);
          return { ...result, nodes: await nodes(memory) };
        }
        case 'recall': {
          const { memory } = await ready;
          const start = now();
          const result = await memory.recall(request.query, { k: request.k ?? RECALL_K });
          return { ...result, ms: now() - start };
        }
        case 'forget': {
          const { memory } = await ready;
          const deleted = await memory.delete(request.id);
          return { deleted, nodes: await nodes(memory) };
        }
        default:
          throw new Error(`unknown request type ${JSON.stringify((request as { type?: unknown }).type)}`);
      }
    },
  };
}
