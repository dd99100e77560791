/**
 * How a memory node is shown inside a System-One state (catalogue `StateMemory`): shared by the
 * write path (relations, maintenance) and the read path (candidates, stop).
 *
 * @module
 */
import type { MemoryNode } from '../types.js';
import type { StateMemory } from './catalogue.js';

/** A state memory (what System One sees of a node). */
export function stateMemory(n: MemoryNode, ref = n.id): StateMemory {
  const m: StateMemory = { ref, text: n.text };
  if (n.provenance.speaker !== undefined) m.speaker = n.provenance.speaker;
  if (n.observedAt !== undefined) m.observedAt = n.observedAt;
  if (n.provenance.sessionId !== undefined) m.sessionId = n.provenance.sessionId;
  return m;
}

