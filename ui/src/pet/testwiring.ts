// window.__yui for this page: the test hook (`testhook.ts`) read from the
// page's controllers.

import type { Sender } from "./actions";
import type { Backend } from "./backend";
import type { ClickThrough } from "./clickthrough";
import type { Feed } from "./feed";
import { peekOf, type Figure } from "./figure";
import type { LipLevels } from "./lips";
import type { PetStore } from "./store";
import { installTestHook, testState } from "./testhook";

/** What the hook reads. */
export interface HookParts {
  backend: Backend;
  store: PetStore;
  sender: Sender;
  figure: Figure;
  click: ClickThrough;
  feed: Feed;
  lips: LipLevels;
}

/** Publish window.__yui over the page's parts. */
export function wireTestHook({ backend, store, sender, figure, click, feed, lips }: HookParts): void {
  const { host, loop, facing } = figure;
  installTestHook({
    state: () => testState(store.state),
    send: sender.sendText,
    ready: () => host.ready,
    expressions: () => host.expressions(),
    lastCue: () => feed.lastCue,
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
    pose: () => {
      const body = store.state.body;
      return { posture: body.posture, gait: body.gait, peek: peekOf(body), clip: body.blend.to, facing: facing.yaw };
    },
  });
}
