// The pet window: subscribe to the core's events, fold them into the state,
// render the page and the character, and forward what the user does.

import "./style.css";
import { BUNDLED_CHARACTER, pickBackend, type Backend } from "./backend";
import { asCommandError, shell } from "../shell/shell";
import type { Conversation, DragPhase, Side, Touch, UiEvent, UserCommand } from "../bindings/index";
import { Facing, turnsFor } from "./character/facing";
import { CharacterHost, type CharacterSource } from "./character/host";
import { postureMix } from "./character/posture";
import { fetchBytes } from "./character/loader";
import { startClickThrough } from "./clickthrough";
import { Director } from "./director";
import { alphaHit } from "./hittest";
import { RenderLoop } from "./loop";
import { clippedAlpha, clipPathCss, peekSpan, type VisibleSpan } from "./peekclip";
import { bedAnimating, bedFrame, bedShown, postureAnimating, type BodySlice } from "./body";
import { clickTouch, HeadPat, onHead, Press } from "./touch";
import { composerTucked } from "./tuck";
import { answered, asking, conversationLoaded, dismissOffer, initialState, offer, reduce, stopPressed, TOOL_STATUS_HOLD_MS, type State } from "./state";
import { installTestHook, testState, type LastCue } from "./testhook";
import { mountView } from "./view";

/** The character's bytes: the user's .vrm, or the bundled one when there is none. */
function characterSource(backend: Backend, bundledOnly: boolean): CharacterSource {
  return {
    async character() {
      if (!bundledOnly) {
        try {
          const bytes = await backend.characterFile();
          if (bytes.byteLength > 0) return bytes;
        } catch (err) {
          console.warn("yui: character_file failed; using the bundled character", err);
        }
      }
      return fetchBytes(BUNDLED_CHARACTER);
    },
    motion: (id) => backend.motionFile(id),
  };
}

/** The current conversation, for the approval notice (the chat window loads
 * it the same way); the browser fake has none. */
async function currentConversation(backend: Backend): Promise<Conversation | null> {
  if (backend.kind !== "tauri") return null;
  return shell.chatConversation(null, null);
}

/** Wire the page to `backend`. */
async function start(backend: Backend): Promise<void> {
  let state: State = initialState();
  let sawStatus = false;
  let sawScreenWatch = false;
  let sawBody = false;
  let lastCue: LastCue | null = null;
  let dragging = false;
  /** What the lip channel delivered: how many levels, how many opened the mouth, the last one. */
  const lips = { count: 0, loud: 0, last: 0 };
  const canvas = document.getElementById("stage") as HTMLCanvasElement;
  const now = () => performance.now();

  const sendText = async (text: string) => {
    try {
      await backend.send({ type: "send_text", text });
      view.clearComposer();
      view.showLocalError(null);
    } catch (err) {
      view.showLocalError(asCommandError(err).message);
    }
  };
  const sendQuiet = (command: UserCommand) =>
    backend.send(command).catch((err) => view.showLocalError(asCommandError(err).message));
  const view = mountView({
    submit: (text) => void sendText(text),
    stop: () => {
      setState(stopPressed(state));
      void sendQuiet({ type: "stop" });
    },
    acceptOffer: async (sw) => {
      try {
        // The core turns the switch on and saves it; the next call reads it.
        await backend.send({ type: "switch_on", switch: sw });
        view.showLocalError(null);
        setState(dismissOffer(state, sw));
      } catch (err) {
        view.showLocalError(asCommandError(err).message);
      }
    },
    dismissOffer: (sw) => setState(dismissOffer(state, sw)),
    openChat: () => void backend.openChat().catch((err) => view.showLocalError(asCommandError(err).message)),
    // The layer-shell pet holds the keyboard only while the composer is in use.
    composerFocus: (active) => void backend.setKeyboard(active).catch((err) => console.warn("yui: set_pet_keyboard failed", err)),
    approve: (approvalId, decision) => {
      setState(answered(state, approvalId, decision));
      void sendQuiet({ type: "approve", approval_id: approvalId, decision });
    },
    toggleMic: async (on) => {
      try {
        await backend.setMic(on);
        view.setMic(on);
        view.showLocalError(null);
      } catch (err) {
        view.showLocalError(asCommandError(err).message);
      }
    },
  });
  /** The pointer is inside the pet window (the cursor channel says so, even through click-through). */
  let pointerInside = false;
  /** Tuck the composer away while she sits, peeks, is held or moves, unless it is in use or the pointer is here. */
  const tuck = () =>
    view.setTucked(composerTucked({ posture: state.body.posture, moving: state.body.gait !== null, pointerInside, focused: view.composerInUse(), hasText: false }));
  document.addEventListener("focusin", () => tuck());
  document.addEventListener("focusout", () => tuck());
  /** Show `next`; the character makes room when the offer notice or the row under the pill comes or goes. */
  let holdTimer: number | undefined;
  /** The switch the offer notice shows, and the timer that takes it down when it lapses. */
  let offerShown: string | null = null;
  let offerTimer: number | undefined;
  const setState = (next: State) => {
    const before = view.pillBottom();
    const shownNow = offer(next, Date.now());
    const noticeChanged = (shownNow?.switch ?? null) !== offerShown || (asking(next) === null) !== (asking(state) === null);
    offerShown = shownNow?.switch ?? null;
    window.clearTimeout(offerTimer);
    if (shownNow) offerTimer = window.setTimeout(() => setState(state), Math.max(0, shownNow.until - Date.now()) + 20);
    state = next;
    view.render(state, Date.now());
    view.setLift(state.body.below);
    tuck();
    if (noticeChanged || view.pillBottom() !== before) layout();
    // A done or failed tool leaves the pill when its hold passes.
    window.clearTimeout(holdTimer);
    if (state.tool && state.tool.state !== "running") {
      holdTimer = window.setTimeout(() => view.render(state, Date.now()), Math.max(0, state.tool.at + TOOL_STATUS_HOLD_MS - Date.now()) + 20);
    }
  };
  // A done delegation leaves the chip 30 minutes after it ended.
  window.setInterval(() => view.render(state, Date.now()), 30_000);

  const host = new CharacterHost(canvas, now);
  const director = new Director(host);
  // The "Zz" over her head while she sleeps (no pointer events: not part of the hit test).
  const zz = document.createElement("div");
  zz.className = "zz";
  zz.textContent = "Z z z";
  zz.hidden = true;
  document.body.appendChild(zz);
  /** The pointer is over her or the controls (the click-through knows, once it is wired). */
  let pointerOver = () => false;
  // Her turn toward where the core moves the window, and the part of her a peek hides.
  const facing = new Facing();
  let clip: VisibleSpan | null = null;
  let clipCss = "none";
  /** The side she last peeked out of: a lean fading out keeps its side. */
  let peekSide: Side = "left";
  const peekOf = (body: BodySlice) => (body.posture === "peeking" ? body.peek : null);
  /** Hide what is behind the window she peeks around (a CSS clip: no GL work). */
  const applyPeekClip = () => {
    clip = peekSpan(peekOf(state.body), window.innerWidth);
    const css = clipPathCss(clip, window.innerWidth);
    if (css !== clipCss) canvas.style.clipPath = clipCss = css;
  };
  /** The canvas alpha at `p` as the user sees it: what the peek hides is transparent. */
  const seenAlpha = (p: { x: number; y: number }) => clippedAlpha(p, clip, (q) => host.alphaAt(q));
  const loop = new RenderLoop({
    frame(dt, t) {
      director.tick(t);
      const wall = Date.now();
      const bed = bedFrame(state.body, wall);
      host.setBed(bed);
      const body = state.body;
      const yaw = facing.update(window.screenX, dt, turnsFor(body.blend.to));
      peekSide = peekOf(body)?.side ?? peekSide;
      host.setPosture(body.posture, body.gait, postureMix(body.blend, wall), wall, peekSide, yaw);
      applyPeekClip();
      const activity = host.frame(dt);
      const head = bed.asleep ? host.headPoint() : null;
      zz.hidden = head === null;
      if (head) zz.style.transform = `translate(${Math.round(head.x - 8)}px, ${Math.round(head.y - 34)}px)`;
      // A move, the user's hold, a posture crossfade or a turn keeps her awake: she never settles mid-move.
      const moving = activity.moving || bedAnimating(body, wall) || postureAnimating(body, wall) || facing.turning;
      return { ...activity, moving, dragging, thinking: director.thinking, pointerOver: pointerOver(), blink: host.nextBlink() };
    },
  });
  // Native Wayland: no pointer to poll, so the input region follows the drawn shape.
  const byShape = await backend.inputByShape().catch(() => false);
  // There the pointer leaving her hands the keyboard back (no click elsewhere can: she holds it).
  if (byShape) document.documentElement.addEventListener("mouseleave", () => view.blurComposer());
  const click = await startClickThrough({
    backend,
    uiRects: () => view.uiRects(),
    alphaAt: seenAlpha,
    shape: byShape ? { readAll: () => host.readAll(), clip: () => clip } : undefined,
    wake: () => loop.wake(),
    onCursor: (p) => {
      const inside = p !== null && p.x >= 0 && p.y >= 0 && p.x < window.innerWidth && p.y < window.innerHeight;
      if (inside !== pointerInside) {
        pointerInside = inside;
        tuck();
      }
      host.lookAtPoint(p);
      loop.stir(); // the eyes follow a moving pointer: awake while it moves
    },
  });
  host.afterRender = () => click.afterRender();
  pointerOver = () => click.over;
  host.onAnchor = (p) => view.bubble.setAnchor(p);

  const layout = () => {
    const h = window.innerHeight;
    const bottom = view.dockTop() - 4;
    const top = Math.max(view.pillBottom() + 8, bottom - Math.round(h * 0.56));
    host.layout(window.innerWidth, h, { top, bottom, side: 14 });
    view.bubble.setLimits({ minTop: view.pillBottom() + 6, maxBottom: view.dockTop() - 8 });
    loop.wake();
  };
  window.addEventListener("resize", layout);
  layout();

  const loadCharacter = async (userMotions: string[]) => {
    let loaded;
    try {
      loaded = await host.load(characterSource(backend, false), userMotions);
    } catch (err) {
      view.showLocalError(`Could not load the character: ${String(err)}`);
      if (state.body.bed) interruptBody("character_failed");
      loaded = await host.load(characterSource(backend, true), userMotions);
    }
    loop.wake();
    if (!loaded) return;
    await backend
      .send({
        type: "set_vocabulary",
        vocabulary: { emotion_ids: loaded.emotionIds, motion_ids: loaded.motionIds, emotion_text_mode: "free", emotion_text_map: {} },
      })
      .catch((err) => console.warn("yui: set_vocabulary failed", asCommandError(err).message));
  };
  const reloadCharacter = (motions: string[]) =>
    void loadCharacter(motions).catch((err) => console.error("yui: could not load any character", err));

  const apply = (event: UiEvent) => {
    // The core cannot place the window here: the system moves it while the button is held.
    if (event.type === "drag_by_system" && press?.dragging) backend.startDragging().catch((err) => console.warn("yui: startDragging failed", err));
    if (event.type === "status") sawStatus = true;
    if (event.type === "screen_watch") sawScreenWatch = true;
    if (event.type === "body") {
      sawBody = true;
      // No WebGL: the bed scene cannot be drawn.
      if (event.bed && !host.stage) interruptBody("no_webgl");
    }
    setState(reduce(state, event, Date.now()));
    director.onEvent(event, now());
    if (event.type === "cue") {
      const r = host.lastResolved();
      lastCue = { cue: event.cue, expression: event.cue.emotion_id ? r.emotion : null, motion: event.cue.motion_id ? r.motion : null };
    }
    if (event.type === "character_changed") {
      // The bed scene is posed for the old model: let the core end it.
      if (state.body.bed) interruptBody("character_changed");
      reloadCharacter(event.motions);
    }
    // A fresh frame; what the event sets moving (a cue, speech, the bed) keeps her awake through the frame's report.
    loop.refresh();
  };
  /** Tell the core the page cannot keep the bed scene. */
  const interruptBody = (reason: string) =>
    void backend.send({ type: "body_interrupted", reason }).catch((err) => console.warn("yui: body_interrupted failed", asCommandError(err).message));

  // Touch her: a press on her opaque pixels (or the bed's) that moves drags the
  // window; one that does not is a click (a poke, or the bed while it shows).
  // Stroking her head to and fro with no button pressed is a head pat.
  let press: Press | null = null;
  const pat = new HeadPat();
  const sendTouch = (touch: Touch) => void sendQuiet({ type: "touch", touch });
  /** The hold, with the pointer's page point (the core's fallback where the desktop has no global pointer). */
  const sendDrag = (phase: DragPhase, p: { x: number; y: number } | null = null) =>
    void sendQuiet({ type: "drag", phase, ...(p ? { at: { x: Math.round(p.x), y: Math.round(p.y) } } : {}) });
  canvas.addEventListener("mousedown", (e) => {
    if (e.button !== 0) return;
    pat.reset();
    loop.drawNow();
    if (!alphaHit(seenAlpha({ x: e.clientX, y: e.clientY }))) return;
    press = new Press({ x: e.clientX, y: e.clientY });
    dragging = true;
    loop.wake();
  });
  window.addEventListener("mousemove", (e) => {
    const p = { x: e.clientX, y: e.clientY };
    if (press && e.buttons & 1) {
      // The core holds her and places the window under the pointer it reads itself.
      if (press.move(p)) sendDrag("start", press.at);
      else if (press.dragging) sendDrag("move", p);
      return;
    }
    if (e.buttons !== 0) return;
    if (pat.move(p.x, performance.now(), onHead(p, host.bonePoints(), host.headPoint()))) sendTouch({ kind: "head_pat" });
  });
  window.addEventListener("mouseup", (e) => {
    const done = press;
    press = null;
    dragging = false;
    if (done?.dragging) sendDrag("end", { x: e.clientX, y: e.clientY });
    if (!done || e.button !== 0 || !done.release()) return;
    const touch = clickTouch(done.at, host.bonePoints(), bedShown(state.body, Date.now()));
    if (touch) sendTouch(touch);
  });
  window.addEventListener("blur", () => {
    if (press?.dragging) sendDrag("end");
    press = null;
    dragging = false;
  });

  view.render(state, Date.now());
  installTestHook({
    state: () => testState(state),
    send: sendText,
    ready: () => host.ready,
    expressions: () => host.expressions(),
    lastCue: () => lastCue,
    fps: () => loop.fps(),
    targetFps: () => loop.targetRate,
    settled: () => loop.settled,
    hitAt: (x, y) => {
      loop.drawNow();
      return click.hitAt({ x, y });
    },
    characterBox: () => host.characterBox() ?? { x: 0, y: 0, width: 0, height: 0 },
    clickThrough: () => click.ignoring,
    backend: () => backend.kind,
    mouthOpen: () => host.mouthOpen(),
    lipLevels: () => ({ ...lips }),
    pose: () => ({
      posture: state.body.posture,
      gait: state.body.gait,
      peek: peekOf(state.body),
      clip: state.body.blend.to,
      facing: facing.yaw,
    }),
  });

  await backend.subscribe(apply);
  // Real sound's mouth levels: the lips follow them while they come.
  try {
    await backend.lipChannel((level) => {
      lips.count++;
      if (level > 0.02) lips.loud++;
      lips.last = level;
      host.level(level);
      loop.wake();
    });
  } catch (err) {
    console.warn("yui: lip_channel failed; the lips follow the text", asCommandError(err).message);
  }
  try {
    view.setMic(await backend.micEnabled());
  } catch (err) {
    console.warn("yui: mic_enabled failed", asCommandError(err).message);
  }
  try {
    const status = await backend.currentStatus();
    if (!sawStatus) apply({ type: "status", status });
  } catch (err) {
    // No session behind this window (its startup failed): say why, show offline.
    if (!sawStatus) apply({ type: "status", status: { state: "closed" } });
    view.showLocalError(asCommandError(err).message);
  }
  try {
    setState(conversationLoaded(state, await currentConversation(backend)));
  } catch (err) {
    console.warn("yui: chat_conversation failed; approvals show as they come", asCommandError(err).message);
  }
  // Offers raised before the page loaded (a reload) come again.
  backend.send({ type: "show_offers" }).catch((err) => console.warn("yui: show_offers failed", asCommandError(err).message));
  try {
    // The body now (the first body event may predate the page): the launch scene starts asleep.
    const body = await backend.bodyNow();
    if (body && body.type === "body" && !sawBody) apply(body);
  } catch (err) {
    console.warn("yui: body_now failed", asCommandError(err).message);
  }
  try {
    const on = await backend.screenWatched();
    if (!sawScreenWatch) apply({ type: "screen_watch", on });
  } catch (err) {
    console.warn("yui: screen_watched failed", asCommandError(err).message);
  }
  let motions: string[] = [];
  try {
    motions = await backend.userMotions();
  } catch (err) {
    console.warn("yui: user_motions failed", err);
  }
  reloadCharacter(motions);
}

pickBackend()
  .then(start)
  .catch((err) => console.error("yui: could not start the page", err));
