/**
 * The persistent-storage request of the IndexedDB store (`navigator.storage.persist()`, SPEC 9):
 * asked once, never awaited, its outcome kept as a {@link PersistenceState}.
 *
 * @module
 */

/**
 * What came of the persistent-storage request: `'granted'` / `'denied'` (the browser's answer),
 * `'pending'` (asked, no answer yet), `'unavailable'` (no `navigator.storage.persist`), `'off'`
 * (`persist: false`), `'failed'` (the request threw).
 */
export type PersistenceState = 'granted' | 'denied' | 'pending' | 'unavailable' | 'off' | 'failed';

/** The part of `navigator.storage` (a StorageManager) the request uses. */
interface StorageManagerLike {
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
}

/**
 * Asks for persistent storage without waiting for the answer; `report` receives each state.
 * Never throws: persistence is a hint, and a refusal leaves the store working (best effort).
 * @param storage - the StorageManager to ask; `globalThis.navigator.storage` by default.
 */
export function requestPersistence(report: (state: PersistenceState) => void, storage?: StorageManagerLike): void {
  const manager = storage ?? (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage;
  if (manager === undefined || typeof manager.persist !== 'function') {
    report('unavailable');
    return;
  }
  report('pending');
  const persist = manager.persist.bind(manager);
  const already = typeof manager.persisted === 'function' ? manager.persisted.call(manager) : Promise.resolve(false);
  Promise.resolve(already)
    .then((yes) => (yes ? true : persist()))
    .then(
      (granted) => report(granted ? 'granted' : 'denied'),
      () => report('failed'),
    );
}
