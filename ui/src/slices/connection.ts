// The connection slice, shared by every window of a character: the core's
// last `Status` (one flat enum), folded from `status` events.

import type { Status, UiEvent } from "../bindings/index";
import { t } from "../i18n/index";

/** The connection state before any event arrived. */
export function initialConnection(): Status {
  return { state: "connecting", attempt: 0 };
}

/** Fold an event into the connection slice (only `status` changes it). */
export function reduceConnection(status: Status, event: UiEvent): Status {
  return event.type === "status" ? event.status : status;
}

/** True while a turn can be sent now. */
export function canSend(status: Status): boolean {
  return status.state === "ready" || status.state === "stateless";
}

/** How the connection's words are coloured. */
export type ConnectionTone = "ok" | "warn" | "bad";

/**
 * The connection in words (the current language), as the chat header and
 * the settings strip show it: "Connected", "Ready" (a stateless transport), "Reconnecting in 3s —
 * reason", "Key refused", "Offline"…
 */
export function connectionText(s: Status): { text: string; tone: ConnectionTone } {
  switch (s.state) {
    case "connecting":
    case "handshaking":
      return { text: t("shared-connection-connecting"), tone: "warn" };
    case "ready":
      return { text: t("shared-connection-connected"), tone: "ok" };
    case "stateless":
      return { text: t("shared-connection-ready"), tone: "ok" };
    case "reconnecting": {
      const seconds = Math.ceil(s.delay_ms / 1000);
      const text = s.reason ? t("shared-connection-reconnecting-reason", { seconds, reason: s.reason }) : t("shared-connection-reconnecting", { seconds });
      return { text, tone: "warn" };
    }
    case "auth_failed":
      return { text: t("shared-connection-key-refused"), tone: "bad" };
    case "closed":
      return { text: t("shared-connection-offline"), tone: "bad" };
    default: {
      const unknown: never = s;
      return { text: String(unknown), tone: "bad" };
    }
  }
}
