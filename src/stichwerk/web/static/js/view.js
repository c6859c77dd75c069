// @ts-check
// The view library the component pages share: Preact's renderer and hooks with htm's tagged
// templates (no build step: the browser loads the vendored ES modules by their URLs, which
// tsconfig.json maps to the same versions' types; stichwerk.web.preact fetches them), a small
// store a page's frames feed, and a host for parts still built as plain DOM.

import { h, render } from "/static/vendor/preact/11.2.0/preact.mjs";
import { useEffect, useLayoutEffect, useRef, useState } from "/static/vendor/preact/11.2.0/hooks.mjs";
import htm from "/static/vendor/htm/3.1.1/htm.mjs";

/** JSX-like markup in plain JavaScript: html`<p class=${c}>${text}</p>`. */
export const html = /** @type {(strings: TemplateStringsArray, ...values: any[]) => any} */ (htm.bind(h));

export { render, useEffect, useLayoutEffect, useRef, useState };

/**
 * One page's state: ``set`` merges changes and tells every subscriber once.
 * @template {Record<string, any>} S
 */
export class Store {
  /** @param {S} initial */
  constructor(initial) {
    /** @type {S} */ this.state = initial;
    /** @type {Set<() => void>} */ this.listeners = new Set();
  }

  /** @param {Partial<S>} changes */
  set(changes) {
    this.state = { ...this.state, ...changes };
    for (const listener of this.listeners) listener();
  }

  /** Tell the subscribers without a change of the state's own fields (a mutated frame). */
  touch() {
    this.state = { ...this.state };
    for (const listener of this.listeners) listener();
  }

  /** @param {() => void} listener */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }
}

/**
 * The store's state in a component, redrawn when it changes.
 * @template {Record<string, any>} S
 * @param {Store<S>} store
 * @returns {S}
 */
export function useStore(store) {
  const [state, setState] = useState(store.state);
  useEffect(() => {
    setState(store.state);
    return store.subscribe(() => setState(store.state));
  }, [store]);
  return state;
}

/**
 * A part of the page still built as plain DOM (the shared panels of panels.js, rules.js,
 * analysis.js): built again only when one of ``deps`` changes, so a frame that leaves its data
 * alone leaves its nodes (and what the person opened or typed there) alone. The host takes no
 * room of its own (``display: contents``).
 * @param {{build: () => (Node|null), deps: any[], id?: string}} props
 */
export function Dom({ build, deps, id }) {
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  useLayoutEffect(() => {
    const node = build();
    if (ref.current) ref.current.replaceChildren(...(node ? [node] : []));
  }, deps);
  return html`<div class="dom-host" data-host=${id} ref=${ref}></div>`;
}
