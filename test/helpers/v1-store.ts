/**
 * Writes a v1 file store (the format `src/plane/store/legacy-v1.ts` imports; this build no longer
 * writes it) for the importer's tests: `format.json`, and per namespace a journal of the given
 * batches (numbered from 1) and optionally a snapshot of the first ones.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { applyBatch, emptyNamespaceState, toSnapshot } from '../../src/plane/store/memory-storage.js';
import { FILE_STORE_FORMAT, FILE_STORE_VERSION, namespaceFolder, SNAPSHOT_FORMAT } from '../../src/plane/store/legacy-v1.js';
import type { WriteBatch } from '../../src/plane/store/storage.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** One journal line of batch `seq` as the v1 store wrote it: `<seq>\t<sha256/16>\t<JSON>\n`. */
export function v1JournalLine(seq: number, batch: WriteBatch): string {
  const json = JSON.stringify(batch);
  return `${seq}\t${sha256(`${seq}\t${json}`).slice(0, 16)}\t${json}\n`;
}

/** The v1 snapshot file of the state after `batches`: header line (seq, hash) and the state JSON. */
export function v1Snapshot(batches: readonly WriteBatch[]): string {
  const state = emptyNamespaceState();
  for (const b of batches) applyBatch(state, structuredClone(b));
  const body = JSON.stringify(toSnapshot(state));
  return `${JSON.stringify({ format: SNAPSHOT_FORMAT, version: FILE_STORE_VERSION, seq: batches.length, hash: sha256(body).slice(0, 32) })}\n${body}\n`;
}

/** One namespace of a v1 store: its batches, and how many of the first ones a snapshot holds (0: no snapshot). */
export interface V1Namespace {
  batches: WriteBatch[];
  snapshotted?: number;
  /** Appended to the journal as it is (a torn or damaged line). */
  tail?: string;
}

/** Writes a v1 store in `dir` (created) with these namespaces. Returns the folder of each namespace. */
export async function writeV1Store(dir: string, namespaces: Record<string, V1Namespace>): Promise<Record<string, string>> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'format.json'), `${JSON.stringify({ format: FILE_STORE_FORMAT, version: FILE_STORE_VERSION })}\n`);
  const folders: Record<string, string> = {};
  for (const [ns, spec] of Object.entries(namespaces)) {
    const folder = join(dir, 'ns', namespaceFolder(ns));
    await mkdir(folder, { recursive: true });
    if (namespaceFolder(ns).startsWith('nh_')) await writeFile(join(folder, 'name'), ns);
    const cut = spec.snapshotted ?? 0;
    if (cut > 0) await writeFile(join(folder, 'snapshot.json'), v1Snapshot(spec.batches.slice(0, cut)));
    const journal = spec.batches.map((b, i) => (i < cut ? '' : v1JournalLine(i + 1, b))).join('') + (spec.tail ?? '');
    await writeFile(join(folder, 'journal.jsonl'), journal);
    folders[ns] = folder;
  }
  return folders;
}
