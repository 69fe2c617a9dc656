// The face's morph targets: which mesh has which targets, and the shape
// state (eyes, brows, mouth) each target stands for.

import { EYE_STATES, OPEN } from "./eyes.mjs";
import { BROW_BASE, BROW_STATES } from "./brows.mjs";
import { MOUTH_BASE, MOUTH_STATES } from "./mouth.mjs";

/** Face state for one morph target (or neutral). */
export function faceState(name) {
  const st = { L: OPEN, R: OPEN, browL: BROW_BASE, browR: BROW_BASE, mouth: MOUTH_BASE };
  const both = (e) => {
    st.L = e;
    st.R = e;
  };
  if (name === "blinkLeft") st.L = EYE_STATES.closed;
  if (name === "blinkRight") st.R = EYE_STATES.closed;
  if (EYE_STATES[name]) both(EYE_STATES[name]);
  if (BROW_STATES[name]) st.browL = st.browR = BROW_STATES[name];
  if (MOUTH_STATES[name]) st.mouth = MOUTH_STATES[name];
  return st;
}

/** The five emotion expressions. */
const EMOTIONS = ["happy", "angry", "sad", "relaxed", "surprised"];
/** Face meshes and their morph targets (same names as the expressions they serve). */
export const FACE_GROUPS = {
  FaceEyes: ["blinkLeft", "blinkRight", ...EMOTIONS, "lookUp", "lookDown", "lookLeft", "lookRight"],
  FaceBrows: [...EMOTIONS],
  FaceMouth: [...EMOTIONS, "aa", "ih", "ou", "ee", "oh"],
  FaceBlush: [],
};
