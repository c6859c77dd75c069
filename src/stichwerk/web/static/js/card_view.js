// @ts-check
// Cards as components (the table page): the same drawings as cards.js, kept by the renderer so
// a frame that leaves a card alone leaves its button alone (focus, a press under way).

import { cardName } from "./common.js";
import { VIEW_BOX, cardMarkup } from "./cards.js";
import { html } from "./view.js";

/**
 * @typedef {{text: string, title: string, kind?: string}} Badge
 * @typedef {{code: string, onClick?: () => void, disabled?: boolean, selected?: boolean,
 *   small?: boolean, legal?: boolean, dim?: boolean, badge?: Badge, tabIndex?: number,
 *   onFocus?: () => void}} CardProps
 */

/**
 * The drawing; with ``name`` it is the image that names a card button (see ``Card``), else hidden.
 * @param {{code: string|null, name?: string}} props
 */
export function CardSvg({ code, name }) {
  return html`<svg viewBox=${VIEW_BOX} aria-hidden=${name ? undefined : "true"} role=${name ? "img" : undefined}
    aria-label=${name} class="card-svg" dangerouslySetInnerHTML=${{ __html: cardMarkup(code) }}></svg>`;
}

/**
 * A card as a labelled button when it has ``onClick``, otherwise as an image.
 * @param {CardProps} props
 */
export function Card(props) {
  const { code, badge } = props;
  const name = cardName(code) + (badge ? ` (${badge.title})` : "");
  const cls = "card" + (props.small ? " small" : "") + (props.legal ? " legal" : "") +
    (props.selected ? " selected" : "") + (props.disabled ? " unplayable" : "") + (props.dim ? " dim" : "");
  const mark = badge
    ? html`<span class=${"card-badge" + (badge.kind ? ` ${badge.kind}` : "")} aria-hidden="true">${badge.text}</span>`
    : null;
  if (props.onClick) {
    // The button is named by its drawing (an image with the card's name), not by aria-label:
    // the index letters drawn on the face ("10", "D") would then be visible text missing from
    // the label (WCAG 2.5.3, Label in Name; axe-core's label-content-name-mismatch).
    return html`<button type="button" class=${cls} data-card=${code} title=${name}
      disabled=${!!props.disabled} aria-pressed=${props.selected ? "true" : undefined}
      tabIndex=${props.tabIndex} onClick=${props.onClick} onFocus=${props.onFocus}>
      <${CardSvg} code=${code} name=${name} />${mark}</button>`;
  }
  return html`<span class=${cls} role="img" data-card=${code} aria-label=${name} title=${name}>
    <${CardSvg} code=${code} />${mark}</span>`;
}

/** A face-down card (another seat's hand). */
export function CardBack() {
  return html`<span class="card back small"><${CardSvg} code=${null} /></span>`;
}
