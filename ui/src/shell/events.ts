// The core's events for this page, in order, over one Tauri channel.
//
// The shell sends every event of a window's session down the channel the
// page registered (`event_channel`): one ordered stream, text deltas and
// reasoning included, with no event-system round trip per delta. Until the
// channel is registered the shell emits to the window instead, so the page
// also listens there; the shell uses one route or the other for each event,
// never both. One channel serves the whole page: every subscriber of the page
// hears every event.

import { Channel, commands, shellEvents } from "../bindings/commands";
import type { UiEvent } from "../bindings/index";
import { onShellEvent } from "./window";


/** Stop receiving events. */
export type Unsubscribe = () => void;

const handlers = new Set<(event: UiEvent) => void>();
let opened: Promise<void> | null = null;

function deliver(event: UiEvent): void {
  for (const handler of handlers) {
    try {
      handler(event);
    } catch (err) {
      console.error("yui: an event handler failed", event.type, err);
    }
  }
}

/** Listen on the window's event, then register the page's channel (once per page). */
async function open(): Promise<void> {
  await onShellEvent(shellEvents.event, deliver);
  const channel = new Channel<UiEvent>();
  channel.onmessage = deliver;
  try {
    await commands.eventChannel(channel);
  } catch (err) {
    // The emitted events still come: slower, same order.
    console.warn("yui: no event channel; events come as window events", err);
  }
}

/** Receive the core's events (Tauri shell only) until the returned function is called. */
export async function subscribeEvents(onEvent: (event: UiEvent) => void): Promise<Unsubscribe> {
  handlers.add(onEvent);
  opened ??= open();
  try {
    await opened;
  } catch (err) {
    handlers.delete(onEvent);
    opened = null;
    throw err;
  }
  return () => {
    handlers.delete(onEvent);
  };
}

/** Whether this page registered its cast channel (once per page). */
let castOpened: Promise<void> | null = null;
const castHandlers = new Set<(name: string, event: UiEvent) => void>();

/**
 * Receive every event of the open characters other than main, each with her
 * name (the chat window's one view of them all; `cast_channel`). Rejects when
 * the shell refuses the channel (not the chat window).
 */
export async function subscribeCast(onEvent: (name: string, event: UiEvent) => void): Promise<void> {
  castHandlers.add(onEvent);
  castOpened ??= (async () => {
    const channel = new Channel<{ character: string; event: UiEvent }>();
    channel.onmessage = ({ character, event }) => {
      for (const handler of castHandlers) handler(character, event);
    };
    await commands.castChannel(channel);
  })();
  try {
    await castOpened;
  } catch (err) {
    castHandlers.delete(onEvent);
    castOpened = null;
    throw err;
  }
}
