/**
 * One colour per graph view, shared by the trace and the graph (Okabe–Ito palette: tells the four
 * apart with the common colour-vision deficiencies).
 *
 * @module
 */
import { VIEWS, type View } from 'jev-mem';

/** Colour of each view. */
export const VIEW_COLOURS: Readonly<Record<View, string>> = Object.freeze({
  semantic: '#0072B2',
  temporal: '#E69F00',
  causal: '#D55E00',
  entity: '#009E73',
});

/** The views in display order. */
export const VIEW_ORDER: readonly View[] = ['semantic', 'temporal', 'causal', 'entity'].filter((v): v is View => VIEWS.includes(v as View));
