// What the page missed before it loaded: the first status (the pill; offline
// with the reason when this window has no session), the mic toggle, the
// current conversation's pending approvals, offers raised before a reload,
// her body now, whether the screen is watched, and the user's clips, then
// the character. A fact that already came as an event is not overwritten.

import type { Conversation } from "../bindings/index";
import { asCommandError, shell } from "../shell/shell";
import { problemLine } from "./actions";
import type { Backend } from "./backend";
import type { Feed } from "./feed";
import type { CharacterLoader } from "./loadcharacter";
import { conversationLoaded } from "./state";
import type { PetStore } from "./store";
import type { View } from "./view";

/** The current conversation, for the approval notice (the chat window loads
 * it the same way); the browser fake has none. */
export async function currentConversation(backend: Backend): Promise<Conversation | null> {
  if (backend.kind !== "tauri") return null;
  return shell.chatConversation(null, null);
}

/** Read what the page missed, in order, then load the character. */
export async function catchUp(backend: Backend, view: View, store: PetStore, feed: Feed, loader: CharacterLoader): Promise<void> {
  try {
    view.setMic(await backend.micEnabled());
  } catch (err) {
    console.warn("yui: mic_enabled failed", asCommandError(err).message);
  }
  try {
    const status = await backend.currentStatus();
    if (!feed.sawStatus) feed.apply({ type: "status", status });
  } catch (err) {
    // No session behind this window (its startup failed): say why, show offline.
    if (!feed.sawStatus) feed.apply({ type: "status", status: { state: "closed" } });
    view.showLocalError(problemLine(err));
  }
  try {
    // The state after the wait, not before it: events that came meanwhile stay.
    const current = await currentConversation(backend);
    store.set(conversationLoaded(store.state, current));
  } catch (err) {
    console.warn("yui: chat_conversation failed; approvals show as they come", asCommandError(err).message);
  }
  // Offers raised before the page loaded (a reload) come again.
  backend.send({ type: "show_offers" }).catch((err) => console.warn("yui: show_offers failed", asCommandError(err).message));
  try {
    // The body now (the first body event may predate the page): the launch scene starts asleep.
    const body = await backend.bodyNow();
    if (body && body.type === "body" && !feed.sawBody) feed.apply(body);
  } catch (err) {
    console.warn("yui: body_now failed", asCommandError(err).message);
  }
  try {
    const on = await backend.screenWatched();
    if (!feed.sawScreenWatch) feed.apply({ type: "screen_watch", on });
  } catch (err) {
    console.warn("yui: screen_watched failed", asCommandError(err).message);
  }
  let motions: string[] = [];
  try {
    motions = await backend.userMotions();
  } catch (err) {
    console.warn("yui: user_motions failed", err);
  }
  loader.reload(motions);
}
