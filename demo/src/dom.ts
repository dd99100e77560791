/**
 * Tiny DOM helpers for the demo (no framework): element creation with attributes and children.
 *
 * @module
 */

/** Attribute values: `false`/`undefined` omit the attribute, `true` sets it empty. */
export type Attrs = Record<string, string | number | boolean | undefined>;
/** Children: nodes and strings; `null`/`undefined`/`false` are skipped. */
export type Child = Node | string | null | undefined | false;

function setAttrs(el: Element, attrs: Attrs | undefined): void {
  if (attrs === undefined) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
}

/** Creates an HTML element. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** The element with `data-testid="<id>"` under `root`; throws when missing (a page bug). */
export function byTestId<T extends Element = HTMLElement>(root: ParentNode, id: string): T {
  const el = root.querySelector<T>(`[data-testid="${id}"]`);
  if (el === null) throw new Error(`demo: no element [data-testid="${id}"]`);
  return el;
}

/** A section with a heading, as used by every pane. */
export function pane(id: string, title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'pane', id, 'aria-labelledby': `${id}-title` }, h('h2', { id: `${id}-title` }, title), ...children);
}
