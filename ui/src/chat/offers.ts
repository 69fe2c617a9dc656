// The chat window's offer cards: a call a tool switch refused answered at
// once, and this card offers to turn the switch on (the pet shows the same
// offer as its notice). "Turn on" sends `switch_on`; × hides it here.

import { language, mark, t } from "../i18n/index";
import { offerText, standingOffers, type OffersSlice } from "../slices/offers";
import { h, SLOT, withElement } from "./dom";

/** What the cards report back. */
export interface OfferActions {
  /** The user pressed "Turn on" for switch `sw`. */
  accept(sw: string): void;
  /** The user closed the card for switch `sw`. */
  dismiss(sw: string): void;
}

/** Show the offers standing at `now` in `host` (hidden when there are none). */
export function renderOffers(host: HTMLElement, offers: OffersSlice, now: number, actions: OfferActions): void {
  const standing = standingOffers(offers, now);
  const key = `${language()}|${standing.map((o) => `${o.switch}@${o.until}`).join(",")}`;
  // Rebuilt only when what stands changed (render runs on every streamed piece).
  if (host.dataset.key === key) return;
  host.dataset.key = key;
  host.replaceChildren(
    ...standing.map((o) => {
      // not-ui-text: class names
      const accept = h("button", { type: "button", class: "primary offer-accept", onclick: () => actions.accept(o.switch) });
      mark(accept, "chat-offer-accept");
      const dismiss = h("button", { type: "button", class: "offer-dismiss", onclick: () => actions.dismiss(o.switch) }, "×");
      mark(dismiss, "chat-offer-dismiss");
      const off = withElement(t("chat-offer-off", { switch: SLOT }), h("code", {}, o.switch));
      return h("div", { class: "offer-card", role: "alert", "data-switch": o.switch }, h("span", { class: "offer-text" }, offerText(o.switch), " ", ...off), accept, dismiss);
    }),
  );
  host.hidden = standing.length === 0;
}

/** When the next standing offer lapses (epoch ms), or null. */
export function nextLapse(offers: OffersSlice, now: number): number | null {
  const left = standingOffers(offers, now).map((o) => o.until);
  return left.length ? Math.min(...left) : null;
}
