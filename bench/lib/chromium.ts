/**
 * Launch flags of the headless Chromium the browser benchmarks drive (SPEC 9 flags, plus a
 * resolver that knows only 127.0.0.1, shared with the browser tests, test/browser/harness.ts).
 *
 * @module
 */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
]);
