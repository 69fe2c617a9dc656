import { describe, expect, it } from "vitest";
import { NO_OFFERS, offerShown, offerText, reduceOffers, standingOffers, withoutOffer } from "./offers";
import { SAMPLES } from "./samples";

describe("offers", () => {
  it("one card per switch: raised again it moves to the newest; over it goes", () => {
    let o = reduceOffers(NO_OFFERS, { type: "tool_offer", switch: "look.screen", until_ms: 100 });
    o = reduceOffers(o, { type: "tool_offer", switch: "browser", until_ms: 200 });
    o = reduceOffers(o, { type: "tool_offer", switch: "look.screen", until_ms: 300 });
    expect(o).toEqual([
      { switch: "browser", until: 200 },
      { switch: "look.screen", until: 300 },
    ]);
    expect(offerShown(o, 0)?.switch).toBe("look.screen");
    const over = reduceOffers(o, { type: "tool_offer", switch: "look.screen", until_ms: null });
    expect(over).toEqual([{ switch: "browser", until: 200 }]);
    expect(reduceOffers(over, { type: "tool_offer", switch: "relations", until_ms: null })).toBe(over);
  });

  it("other events leave it as it is; a lapsed offer is not shown", () => {
    const o = reduceOffers(NO_OFFERS, SAMPLES.tool_offer);
    for (const e of Object.values(SAMPLES)) if (e.type !== "tool_offer") expect(reduceOffers(o, e)).toBe(o);
    expect(offerShown(o, 300_000)).toBeNull();
    expect(withoutOffer(o, "browser")).toBe(o);
    expect(offerShown(withoutOffer(o, "look.screen"), 0)).toBeNull();
  });

  it("a dismissed offer sent again (a window asked for the standing ones) stays dismissed; a new one shows", () => {
    const raised = { type: "tool_offer", switch: "browser", until_ms: 500 } as const;
    const gone = withoutOffer(reduceOffers(NO_OFFERS, raised), "browser");
    expect(withoutOffer(gone, "browser")).toBe(gone);
    expect(reduceOffers(gone, raised)).toBe(gone);
    expect(offerShown(reduceOffers(gone, raised), 0)).toBeNull();
    expect(offerShown(reduceOffers(gone, { ...raised, until_ms: 900 }), 0)?.until).toBe(900);
    expect(standingOffers(reduceOffers(gone, { ...raised, until_ms: 900 }), 600)).toEqual([{ switch: "browser", until: 900 }]);
  });

  it("says which switch is off", () => {
    expect(offerText("look.screen")).toMatch(/see your screen/);
    expect(offerText("browser")).toMatch(/browser/);
    expect(offerText("relations")).toMatch(/relations are off/);
  });
});
