// The pet window: subscribe to the core's events, fold them into the state,
// render the page and the character, and forward what the user does. This
// file only composes the page's controllers, in the order the page needs:
//
// - `store.ts`: the state, and what a change of it shows;
// - `actions.ts`: what the controls send (composer, Stop, notices, mic, chat);
// - `composer.ts`: the composer tucked away or shown;
// - `figure.ts`: her body (host, director, render loop, facing, peek clip, Zz);
// - `pointer.ts`: click-through, input shape, the cursor;
// - `layout.ts`: the character and the bubble laid out in the page;
// - `loadcharacter.ts`: loading the .vrm and the clips, the vocabulary;
// - `feed.ts`: the core's events into the page;
// - `touchinput.ts`: presses, drags, clicks and head pats;
// - `testwiring.ts`: window.__yui for the end-to-end tests;
// - `lips.ts` and `catchup.ts`: the lip channel, and what the page missed before it loaded.

import "./style.css";
import { onLanguage } from "../i18n/index";
import { followLanguage } from "../i18n/live";
import { petActions } from "./actions";
import { pickBackend, type Backend } from "./backend";
import { catchUp, currentConversation } from "./catchup";
import { ComposerTuck } from "./composer";
import { Feed } from "./feed";
import { Figure } from "./figure";
import { wireLayout } from "./layout";
import { wireLips } from "./lips";
import { CharacterLoader } from "./loadcharacter";
import { wirePointer } from "./pointer";
import { anotherCharacter, conversationLoaded } from "./state";
import { PetStore } from "./store";
import { wireTestHook } from "./testwiring";
import { wireTouch } from "./touchinput";
import { mountView, type View } from "./view";

/** Wire the page to `backend`. */
async function start(backend: Backend): Promise<void> {
  // The store reads the view, the composer and the layout when the state changes; they exist by then.
  let composer: ComposerTuck | undefined;
  let layout: (() => void) | undefined;
  const store = new PetStore({ view: () => view, tuck: () => composer?.tuck(), layout: () => layout?.() });
  const { sender, actions } = petActions(backend, store, () => view);
  const view: View = mountView(actions);
  // What the page wrote from code is written again in the new language (the marked text follows by itself).
  onLanguage(() => {
    store.set(store.state);
    layout?.();
  });
  // Several characters share the page: each window names its own (again
  // when the window shows another character: the cast moved).
  let shownName: string | null = null;
  const showName = () =>
    backend
      .characterName()
      .then(async (name) => {
        const swapped = shownName !== null && name !== shownName;
        shownName = name;
        view.setName(name);
        // Another character in this window: the old one's bubble and conversation go.
        if (!swapped) return;
        store.set(anotherCharacter(store.state));
        // The state after the wait, not before it: events that came meanwhile stay.
        const current = await currentConversation(backend);
        store.set(conversationLoaded(store.state, current));
      })
      .catch(() => undefined);
  void showName();
  composer = new ComposerTuck(view, store);
  store.refreshChips();

  const canvas = document.getElementById("stage") as HTMLCanvasElement;
  const figure = new Figure(canvas, store, () => performance.now());
  const click = await wirePointer(backend, view, figure, composer);
  layout = wireLayout(view, figure);

  const loader = new CharacterLoader(backend, figure, store, view);
  const holding = wireTouch(canvas, figure, store, sender);
  const feed = new Feed(backend, store, figure, holding, loader);
  const lips = wireLips(backend, figure);

  store.render();
  wireTestHook({ backend, store, sender, figure, click, feed, lips: lips.levels });

  await backend.subscribe((event) => {
    feed.apply(event);
    if (event.type === "character_changed") void showName();
  });
  // Real sound's mouth levels: the lips follow them while they come.
  await lips.connect();
  await catchUp(backend, view, store, feed, loader);
}

// The page speaks the app's language before it shows anything.
followLanguage()
  .then(pickBackend)
  .then(start)
  .catch((err) => console.error("yui: could not start the page", err));
