/**
 * The parts of a V8 `.cpuprofile` (`node --cpu-prof`) the profile scripts read
 * (`profile-summary.ts`, `profile-split.ts`).
 *
 * @module
 */

/** One call-tree node. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** A CPU profile: the call tree and its samples (node ids) with their time deltas in µs. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
