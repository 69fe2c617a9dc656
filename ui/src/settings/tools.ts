// The settings window's "Screen & tools" section: the screenshot switch and
// source, the tool switches, and the relations list with a value set by hand.
// The switches save with the form; a relation is set at once. Also the
// sections' shared ways to write words: a failed command's line, and text
// written again after each switch of language.

import { shell } from "../shell/shell";
import type { Display, ErrorCode, RelationRecord, Settings } from "../bindings";
import { liveText, mark, onLanguage, t } from "../i18n/index";
import { problemText } from "../i18n/problems";
import { bandText, displayOptions, RELATION_MAX, RELATION_MIN, relationChange, relationRows, relationValue, sourceFromForm, thumbnails } from "./screen";

/** The `{ code, message }` a failed command returns, as one line: the code's headline, then the core's detail. */
export function errorText(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) {
    const message = String((e as { message: unknown }).message);
    return "code" in e ? problemText({ code: (e as { code: ErrorCode }).code, message }) : message;
  }
  return String(e);
}


function input(form: HTMLFormElement, name: string): HTMLInputElement {
  return form.elements.namedItem(name) as HTMLInputElement;
}

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id} in settings.html`);
  return found as T;
}

/** Controls of the section. */
export class ScreenTools {
  private readonly monitor: HTMLSelectElement;
  private readonly displaysError = byId<HTMLParagraphElement>("displays-error");
  private readonly relationsBody = byId<HTMLTableElement>("relations").tBodies[0];
  private readonly relationsMessage = byId<HTMLParagraphElement>("relations-message");
  /** What the pickers and the list show, kept to write them again in another language. */
  private displays: { list: Display[]; saved: number | null } | null = null;
  private records: RelationRecord[] | null = null;

  /** Wire the section inside `form`. */
  constructor(private readonly form: HTMLFormElement) {
    this.monitor = form.elements.namedItem("screen_monitor") as HTMLSelectElement;
    for (const radio of this.kindRadios()) radio.addEventListener("change", () => this.syncKind());
    byId("refresh-relations").addEventListener("click", () => void this.loadRelations());
    onLanguage(() => {
      if (this.displays) this.showDisplays(this.displays.list, this.displays.saved, this.monitor.value);
      if (this.records) this.showRelations(this.records);
    });
  }

  private kindRadios(): HTMLInputElement[] {
    return Array.from(this.form.querySelectorAll<HTMLInputElement>('input[name="screen_kind"]'));
  }

  private kind(): string {
    return this.kindRadios().find((r) => r.checked)?.value ?? "monitor";
  }

  /** Enable the fields of the chosen source kind only. */
  private syncKind(): void {
    const windowKind = this.kind() === "window";
    this.monitor.disabled = windowKind;
    input(this.form, "screen_app").disabled = !windowKind;
    input(this.form, "screen_title").disabled = !windowKind;
  }

  /** Show `s`'s switches and source, then list the displays. */
  fill(s: Settings): void {
    input(this.form, "screenshot_enabled").checked = s.screenshot.enabled;
    input(this.form, "allow_requests").checked = s.screenshot.allowRequests;
    input(this.form, "browser").checked = s.browser;
    input(this.form, "relations").checked = s.relations;
    const source = s.screenshot.source;
    for (const radio of this.kindRadios()) radio.checked = radio.value === source.kind;
    input(this.form, "screen_app").value = source.kind === "window" ? source.app : "";
    input(this.form, "screen_title").value = source.kind === "window" ? source.title : "";
    this.syncKind();
    void this.loadDisplays(source.kind === "monitor" ? source.index : null);
  }

  /** A switch was turned on outside this form (the pet's or the chat
   * window's offer, `tool_offer` over): show it on, so a later Save keeps it. */
  switchedOn(sw: string): void {
    const name = { "look.screen": "allow_requests", browser: "browser", relations: "relations" }[sw];
    if (name) input(this.form, name).checked = true;
  }

  /** The section's part of the settings, as the form shows it now. */
  read(): Pick<Settings, "screenshot" | "browser" | "relations"> {
    return {
      screenshot: {
        enabled: input(this.form, "screenshot_enabled").checked,
        allowRequests: input(this.form, "allow_requests").checked,
        source: sourceFromForm(this.kind(), this.monitor.value, input(this.form, "screen_app").value, input(this.form, "screen_title").value),
      },
      browser: input(this.form, "browser").checked,
      relations: input(this.form, "relations").checked,
    };
  }

  /** Fill the display picker, keeping `saved` selected; a listing error shows as one line. */
  async loadDisplays(saved: number | null): Promise<void> {
    let displays: Display[] = [];
    try {
      displays = await shell.listDisplays();
      this.displaysError.hidden = true;
    } catch (e) {
      liveText(this.displaysError, () => t("section-tools-displays-error", { problem: errorText(e) }));
      this.displaysError.hidden = false;
    }
    this.displays = { list: displays, saved };
    this.showDisplays(displays, saved, String(saved ?? displays.find((d) => d.primary)?.index ?? 0));
  }

  private showDisplays(displays: Display[], saved: number | null, selected: string): void {
    this.monitor.replaceChildren(
      ...displayOptions(displays, saved).map((o) => Object.assign(document.createElement("option"), { value: o.value, textContent: o.label })),
    );
    this.monitor.value = selected;
  }

  /** List the pet's relations with a value to set by hand for each. */
  async loadRelations(): Promise<void> {
    let records: RelationRecord[];
    try {
      records = await shell.listRelations();
    } catch (e) {
      liveText(this.relationsMessage, () => errorText(e));
      return;
    }
    this.records = records;
    this.showRelations(records);
  }

  private showRelations(records: RelationRecord[]): void {
    this.relationsBody.replaceChildren(...relationRows(records).map((r) => this.row(r)));
  }

  private row(r: RelationRecord): HTMLTableRowElement {
    const tr = document.createElement("tr");
    tr.dataset.target = r.target;
    const cell = (text: string, className = "") => Object.assign(document.createElement("td"), { textContent: text, className });
    const value = Object.assign(document.createElement("input"), {
      type: "number",
      min: "-10",
      max: "10",
      step: "1",
      value: String(r.value),
      className: "relation-value",
    });
    mark(value, "section-tools-relation-value", { target: r.target });
    const set = Object.assign(document.createElement("button"), { type: "button", className: "small" });
    mark(set, "section-tools-relation-set");
    set.addEventListener("click", () => void this.setRelation(r.target, value.value));
    const edit = document.createElement("td");
    edit.append(Object.assign(document.createElement("span"), { className: "row" }));
    edit.firstElementChild?.append(value, set);
    // not-ui-text: the band's class names (settings.css)
    const target = cell(targetText(r.target), "target");
    // A character's name is hers, in every language.
    if (r.target !== "user") target.dataset.words = "theirs";
    // not-ui-text: the band cell's class names.
    tr.append(target, cell(bandText(r.band), `band band-${r.band}`), edit, cell(relationChange(r), "change"));
    return tr;
  }

  private async setRelation(target: string, text: string): Promise<void> {
    const value = relationValue(text);
    if (value === null) {
      liveText(this.relationsMessage, () => t("section-tools-relation-range", { min: RELATION_MIN, max: RELATION_MAX }));
      return;
    }
    try {
      const record = await shell.setRelation(target, value);
      liveText(this.relationsMessage, () => t("section-tools-relation-done", { target: targetText(record.target), value: record.value, band: bandText(record.band) }));
      await this.loadRelations();
    } catch (e) {
      liveText(this.relationsMessage, () => errorText(e));
    }
  }
}

/** The pictures that left with a block, as thumbnails; a click opens one larger. */
export function pictureStrip(images: readonly string[]): HTMLElement | null {
  const thumbs = thumbnails(images);
  if (thumbs.length === 0) return null;
  const strip = Object.assign(document.createElement("div"), { className: "thumbs" });
  for (const thumb of thumbs) {
    const img = Object.assign(document.createElement("img"), { src: thumb.src, className: "thumb" });
    mark(img, "section-tools-thumb", { label: thumb.label });
    img.addEventListener("click", () => openPicture(thumb.src));
    strip.append(img);
  }
  return strip;
}

/** Show `src` over the window; a click anywhere (or Escape) closes it. */
function openPicture(src: string): void {
  const view = byId<HTMLDivElement>("picture-view");
  (view.querySelector("img") as HTMLImageElement).src = src;
  view.hidden = false;
  const close = () => {
    view.hidden = true;
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") close();
  };
  view.onclick = close;
  document.addEventListener("keydown", onKey);
}

/** Whom a relation is about: "user" (the core's word for the user) is "you" in the current language; anyone else by name. */
function targetText(target: string): string {
  return target === "user" ? t("section-tools-relation-you") : target;
}
