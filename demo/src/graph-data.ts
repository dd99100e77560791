/**
 * Collects the part of the memory graph around a recall for the graph view, through the public
 * API only (`memory.get`, `memory.edges`): the shown results, the nodes on the trace's expansion
 * path, then up to `neighboursPerNode` neighbours of each result (entity, causal and semantic
 * edges before temporal ones, heavier first), at most `maxNodes` in all; and the edges between
 * collected nodes that the expansion path took or that touch a result (other edges are left out
 * to keep the picture readable), the path's marked.
 *
 * @module
 */
import type { Memory, MemoryEdge, RecallResult, View } from 'jev-mem';

/** A node of the picture. */
export interface GraphNode {
  id: string;
  text: string;
  speaker?: string;
  observedAt?: string;
  /** `result`: among the shown results; `path`: reached by the expansion path; `neighbour`: one hop from a result. */
  role: 'result' | 'path' | 'neighbour';
  /** 1-based rank among the results. */
  rank?: number;
  /** Recall score, for results. */
  score?: number;
}

/** An edge of the picture. */
export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  view: View;
  subtype: string;
  weight: number;
  /** True when the trace's expansion path went along this edge. */
  onPath: boolean;
}

/** What the graph view draws. */
export interface GraphData {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** True when `maxNodes` left neighbours out. */
  truncated: boolean;
}

/** Options of {@link collectGraph}. */
export interface CollectGraphOptions {
  /** Results drawn (the first of `result.memories`). @default 10 */
  results?: number;
  /** Most nodes drawn. @default 300 */
  maxNodes?: number;
  /** Most neighbours added per result. @default 8 */
  neighboursPerNode?: number;
}

const VIEW_PRIORITY: Record<View, number> = { entity: 0, causal: 1, semantic: 2, temporal: 3 };

/** Gathers the neighbourhood of a recall (see the module notes). */
export async function collectGraph(memory: Pick<Memory, 'get' | 'edges'>, result: RecallResult, options: CollectGraphOptions = {}): Promise<GraphData> {
  const maxNodes = options.maxNodes ?? 300;
  const perNode = options.neighboursPerNode ?? 8;
  const shown = result.memories.slice(0, options.results ?? 10);
  const role = new Map<string, GraphNode['role']>();
  const order: string[] = [];
  let truncated = false;
  const include = (id: string, r: GraphNode['role']): boolean => {
    if (role.has(id)) return true;
    if (order.length >= maxNodes) {
      truncated = true;
      return false;
    }
    role.set(id, r);
    order.push(id);
    return true;
  };
  shown.forEach((m) => include(m.id, 'result'));
  const pathEdges = new Set<string>();
  for (const x of result.trace.expansions) {
    pathEdges.add(x.edge.id);
    include(x.from, 'path');
    include(x.to, 'path');
  }
  const edgeCache = new Map<string, MemoryEdge[]>();
  const edgesOf = async (id: string): Promise<MemoryEdge[]> => {
    let e = edgeCache.get(id);
    if (e === undefined) {
      e = await memory.edges(id);
      edgeCache.set(id, e);
    }
    return e;
  };
  for (const m of shown) {
    const around = [...(await edgesOf(m.id))].sort((a, b) => VIEW_PRIORITY[a.view] - VIEW_PRIORITY[b.view] || b.weight - a.weight);
    let added = 0;
    for (const e of around) {
      if (added >= perNode) break;
      const other = e.from === m.id ? e.to : e.from;
      if (role.has(other)) continue;
      if (!include(other, 'neighbour')) break;
      added++;
    }
  }
  const nodes: GraphNode[] = [];
  const rank = new Map(shown.map((m, i) => [m.id, i + 1]));
  const score = new Map(shown.map((m) => [m.id, m.score]));
  for (const id of order) {
    const n = await memory.get(id);
    if (n === undefined) continue;
    const g: GraphNode = { id, text: n.text, role: role.get(id) as GraphNode['role'] };
    if (n.provenance.speaker !== undefined) g.speaker = n.provenance.speaker;
    if (n.observedAt !== undefined) g.observedAt = n.observedAt;
    if (rank.has(id)) g.rank = rank.get(id) as number;
    if (score.has(id)) g.score = score.get(id) as number;
    nodes.push(g);
  }
  const present = new Set(nodes.map((n) => n.id));
  const edges = new Map<string, GraphEdge>();
  for (const id of present) {
    for (const e of await edgesOf(id)) {
      if (edges.has(e.id) || !present.has(e.from) || !present.has(e.to)) continue;
      if (!pathEdges.has(e.id) && role.get(e.from) !== 'result' && role.get(e.to) !== 'result') continue;
      edges.set(e.id, { id: e.id, from: e.from, to: e.to, view: e.view, subtype: e.subtype, weight: e.weight, onPath: pathEdges.has(e.id) });
    }
  }
  return { nodes, edges: [...edges.values()], truncated };
}
