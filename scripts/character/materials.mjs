// Materials: one MToon material (VRMC_materials_mtoon) per colour, with a
// plain PBR base colour as the fallback for viewers without the extension.
// Colours are sRGB hex here and linear in the file. Body, clothes and hair
// get a world-space outline; the face decals have none and are shaded flat.

import { round } from "./math.mjs";

/** An sRGB channel in [0, 1] to linear. */
const srgbToLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
/** "#RRGGBB" to linear [r, g, b], rounded to 5 decimals. */
const hex = (h) => [1, 3, 5].map((i) => round(srgbToLinear(parseInt(h.slice(i, i + 2), 16) / 255), 5));

/** Outline width in metres. */
const OUTLINE = 0.0035;
/** Material name -> colours; the key order is the material index order in the file. */
export const MATERIALS = {
  skin: { color: "#FFE6DA", shade: "#F5C0B4", outline: "#A0685E" },
  skinShade: { color: "#F8D2C6", shade: "#EBB3A8", outline: "#A0685E" },
  hair: { color: "#F6B3D0", shade: "#C98FD2", outline: "#7A4A78" },
  brow: { color: "#8E4A70", shade: "#8E4A70" },
  eyeWhite: { color: "#FFFFFF", shade: "#F4F0F8" },
  iris: { color: "#7C5FD6", shade: "#7C5FD6" },
  irisDeep: { color: "#4C3A9E", shade: "#4C3A9E" },
  irisLight: { color: "#B6A5FA", shade: "#B6A5FA" },
  pupil: { color: "#2A1F4A", shade: "#2A1F4A" },
  lash: { color: "#3C2536", shade: "#3C2536" },
  mouth: { color: "#93384C", shade: "#93384C" },
  tongue: { color: "#F28D9E", shade: "#F28D9E" },
  blush: { color: "#FFC6CC", shade: "#FFC6CC" },
  dress: { color: "#34407A", shade: "#232B57", outline: "#151A38" },
  white: { color: "#FFFFFF", shade: "#D9DCF0", outline: "#4A4E70" },
  ribbon: { color: "#8ED2F6", shade: "#62A6DA", outline: "#2E5A86" },
  shoe: { color: "#3E3458", shade: "#2A2340", outline: "#15121F" },
};
/** Material name -> its index in the file's materials array. */
export const MAT_INDEX = Object.fromEntries(Object.keys(MATERIALS).map((k, i) => [k, i]));

/** The glTF material JSON (MToon extension included) for one entry of MATERIALS. */
export function materialJson(name) {
  const m = MATERIALS[name];
  const outline = Boolean(m.outline);
  return {
    name,
    pbrMetallicRoughness: { baseColorFactor: [...hex(m.color), 1], metallicFactor: 0, roughnessFactor: 1 },
    doubleSided: false,
    extensions: {
      VRMC_materials_mtoon: {
        specVersion: "1.0",
        shadeColorFactor: hex(m.shade),
        shadingShiftFactor: outline ? -0.1 : 0,
        shadingToonyFactor: 0.9,
        outlineWidthMode: outline ? "worldCoordinates" : "none",
        outlineWidthFactor: outline ? OUTLINE : 0,
        outlineColorFactor: outline ? hex(m.outline) : [0, 0, 0],
        outlineLightingMixFactor: 1,
      },
    },
  };
}
