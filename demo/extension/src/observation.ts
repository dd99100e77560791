/**
 * What the extension stores for one save: an observation o = (x, τ, μ) (paper eq. (4), SPEC 3)
 * whose text x is the user's note or selection, kept verbatim; τ the moment of the save; μ the
 * page it came from. Pure functions, shared by the popup and the service worker (context menu).
 *
 * @module
 */
import type { Observation, Provenance } from '../../../src/types.js';

/** The page a save came from. */
export interface PageRef {
  /** `document.title` of the tab (may be empty). */
  title: string;
  /** The tab's URL. */
  url: string;
}

/** How the text was taken. */
export type SaveKind = 'note' | 'selection';

/** Which part of the extension made the save. */
export type SaveVia = 'popup' | 'context-menu';

/** Input of {@link buildObservation}. */
export interface SaveInput {
  kind: SaveKind;
  /** The note or selected text; surrounding white space is dropped, the rest kept verbatim. */
  text: string;
  /** The page, when the save has one (a selection always has; a note when the user attaches it). */
  page?: PageRef;
  /** When the user saved (becomes τ, `observedAt`). */
  savedAt: Date;
  via: SaveVia;
}

/** The metadata the extension puts on each memory (`provenance.metadata`). */
export interface SaveMetadata {
  kind: SaveKind;
  via: SaveVia;
  pageTitle?: string;
  pageUrl?: string;
}

/**
 * The page URL used as provenance: the tab's URL without its fragment (`#…`), so that two
 * selections from one article share a session; `undefined` for URLs that name no web page
 * (`chrome://`, `about:`, this extension's own pages…).
 */
export function provenanceURL(url: string | undefined): string | undefined {
  if (url === undefined || url === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:', 'file:'].includes(parsed.protocol)) return undefined;
  parsed.hash = '';
  return parsed.href;
}

/**
 * Builds the observation for one save. The page, when given and a web page, becomes the
 * provenance: `source` is `'note'` or `'selection'`, `sessionId` the page URL (so saves from one
 * page are linked by the memory's same-session edges), and `metadata` holds the title and URL.
 *
 * @throws Error when the text is empty after trimming (the popup disables Save then).
 */
export function buildObservation(input: SaveInput): Observation {
  const text = input.text.trim();
  if (text.length === 0) throw new Error(`the ${input.kind} is empty: nothing to save`);
  const url = provenanceURL(input.page?.url);
  const metadata: SaveMetadata = { kind: input.kind, via: input.via };
  const provenance: Provenance = { source: input.kind };
  if (url !== undefined && input.page !== undefined) {
    const title = input.page.title.trim();
    if (title !== '') metadata.pageTitle = title;
    metadata.pageUrl = url;
    provenance.sessionId = url;
  }
  return { text, observedAt: input.savedAt.toISOString(), ...provenance, metadata: { ...metadata } };
}

/** The page of a stored memory, read back from its provenance (undefined when it has none). */
export function pageOf(provenance: Provenance): { title?: string; url: string } | undefined {
  const m = provenance.metadata;
  const url = typeof m?.pageUrl === 'string' ? m.pageUrl : undefined;
  if (url === undefined) return undefined;
  return typeof m?.pageTitle === 'string' ? { title: m.pageTitle, url } : { url };
}
