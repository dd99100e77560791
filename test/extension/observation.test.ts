import { describe, expect, it } from 'vitest';
import { buildObservation, pageOf, provenanceURL } from '../../demo/extension/src/observation.js';

const savedAt = new Date('2026-03-02T10:15:00.000Z');

describe('extension observation: what one save stores', () => {
  it('keeps a note verbatim apart from surrounding white space, at the time of the save', () => {
    const o = buildObservation({ kind: 'note', text: '  Dentist moved to Thursday 4pm.\n', savedAt, via: 'popup' });
    expect(o.text).toBe('Dentist moved to Thursday 4pm.');
    expect(o.observedAt).toBe('2026-03-02T10:15:00.000Z');
    expect(o.source).toBe('note');
  });

  it('puts the page title and URL in the provenance and uses the URL as the session', () => {
    const o = buildObservation({ kind: 'selection', text: 'Glazing needs two firings.', page: { title: ' Pottery 101 ', url: 'https://example.org/pottery?x=1#glaze' }, savedAt, via: 'context-menu' });
    expect(o.source).toBe('selection');
    expect(o.sessionId).toBe('https://example.org/pottery?x=1');
    expect(o.metadata).toEqual({ kind: 'selection', via: 'context-menu', pageTitle: 'Pottery 101', pageUrl: 'https://example.org/pottery?x=1' });
  });

  it('stores no page for tabs that are not web pages', () => {
    const o = buildObservation({ kind: 'note', text: 'x', page: { title: 'Extensions', url: 'chrome://extensions/' }, savedAt, via: 'popup' });
    expect(o.sessionId).toBeUndefined();
    expect(o.metadata).toEqual({ kind: 'note', via: 'popup' });
  });

  it('refuses an empty text', () => {
    expect(() => buildObservation({ kind: 'selection', text: ' \n\t', savedAt, via: 'popup' })).toThrow(/empty/);
  });

  it('reads the page back from a stored provenance', () => {
    const o = buildObservation({ kind: 'selection', text: 'y', page: { title: 'T', url: 'https://a.test/p' }, savedAt, via: 'popup' });
    expect(pageOf(o)).toEqual({ title: 'T', url: 'https://a.test/p' });
    expect(pageOf({ source: 'note' })).toBeUndefined();
  });

  it('accepts http, https and file URLs only, without their fragment', () => {
    expect(provenanceURL('http://a.test/#top')).toBe('http://a.test/');
    expect(provenanceURL('file:///home/me/notes.html')).toBe('file:///home/me/notes.html');
    expect(provenanceURL('chrome-extension://abc/popup.html')).toBeUndefined();
    expect(provenanceURL('about:blank')).toBeUndefined();
    expect(provenanceURL('not a url')).toBeUndefined();
    expect(provenanceURL(undefined)).toBeUndefined();
  });
});
