// The offers to switch a tool switch on (`tool_offer` events): a call the
// switch refused answered at once, and the pet's notice and the chat
// window's card offer to turn it on. The core decides when an offer stands
// and until when (`until_ms`); a window only shows it, sends `switch_on`
// when the user accepts, and hides it locally when the user dismisses it.
// Pure: no DOM.

import type { UiEvent } from "../bindings/index";
import { t } from "../i18n/index";

/** One standing offer. */
export interface Offer {
  /** The switch: `look.screen`, `browser` or `relations`. */
  switch: string;
  /** Until when it stands (epoch ms). */
  until: number;
  /** The user closed it in this window (it stays known, so the same offer sent again stays closed). */
  dismissed?: boolean;
}

/** The offers standing, oldest first (one per switch). */
export type OffersSlice = readonly Offer[];

/** No offer. */
export const NO_OFFERS: OffersSlice = [];

/** Fold a core event in: an offer raised (again), sent again (a window
 * opened and asked for the standing ones: kept as it is here), or over. */
export function reduceOffers(offers: OffersSlice, event: UiEvent): OffersSlice {
  if (event.type !== "tool_offer") return offers;
  if (offers.some((o) => o.switch === event.switch && o.until === event.until_ms)) return offers;
  const rest = offers.filter((o) => o.switch !== event.switch);
  if (event.until_ms === null) return rest.length === offers.length ? offers : rest;
  return [...rest, { switch: event.switch, until: event.until_ms }];
}

/** The offer to show at `now`: the newest one still standing, or null. */
export function offerShown(offers: OffersSlice, now: number): Offer | null {
  for (let i = offers.length - 1; i >= 0; i--) {
    if (offers[i].until > now && !offers[i].dismissed) return offers[i];
  }
  return null;
}

/** The user dismissed (or accepted) the offer for `sw` in this window: it is no longer shown. */
export function withoutOffer(offers: OffersSlice, sw: string): OffersSlice {
  if (!offers.some((o) => o.switch === sw && !o.dismissed)) return offers;
  return offers.map((o) => (o.switch === sw ? { ...o, dismissed: true } : o));
}

/** The offers a window shows at `now`, oldest first. */
export function standingOffers(offers: OffersSlice, now: number): Offer[] {
  return offers.filter((o) => o.until > now && !o.dismissed);
}

/** The notice's line for the switch `sw`, in the current language. */
export function offerText(sw: string): string {
  switch (sw) {
    case "look.screen":
      return t("shared-offer-look-screen");
    case "browser":
      return t("shared-offer-browser");
    case "relations":
      return t("shared-offer-relations");
    default:
      return t("shared-offer-other", { switch: sw });
  }
}
