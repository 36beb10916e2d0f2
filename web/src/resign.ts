// Resign: a seated player gives the game up now (a loss; in a rated match it is rated as one).
// Two steps so a stray click never ends a game: "Resign…" opens a confirm row, "Yes, resign"
// sends the typed `resign` frame. Text only through textContent (the `el` helper).
import { el } from "./api";
import type { components } from "./generated/api";

export type ResignFrame = components["schemas"]["ResignFrame"];

export interface ResignControl {
  element: HTMLElement;
  /** Show the button while ``seat`` (a held seat of a running game) may resign; null hides it. */
  render(seat: number | null, busy: boolean): void;
}

export function createResignControl(send: (frame: Omit<ResignFrame, "id">) => void): ResignControl {
  let seat: number | null = null;
  const open = el("button", { type: "button", id: "resign", class: "danger", text: "Resign…", title: "Give this game up now (it counts as a loss)" });
  const question = el("span", { id: "resign-question", text: "Give up this game? It counts as a loss." });
  const yes = el("button", { type: "button", id: "resign-confirm", class: "danger", text: "Yes, resign" });
  const no = el("button", { type: "button", id: "resign-cancel", text: "Keep playing" });
  const confirm = el("div", { class: "inline resign-confirm", id: "resign-confirm-row", role: "group", "aria-label": "Confirm resignation", hidden: "" }, question, yes, no);
  const element = el("div", { class: "resign", id: "resign-box" }, open, confirm);

  open.addEventListener("click", () => {
    confirm.hidden = false;
    open.hidden = true;
    no.focus();
  });
  no.addEventListener("click", () => {
    confirm.hidden = true;
    open.hidden = false;
  });
  yes.addEventListener("click", () => {
    if (seat === null) return;
    confirm.hidden = true;
    open.hidden = false;
    send({ type: "resign", seat });
  });

  return {
    element,
    render(next: number | null, busy: boolean): void {
      seat = next;
      element.hidden = next === null;
      if (next === null) {
        confirm.hidden = true;
        open.hidden = false;
      }
      yes.disabled = busy;
    },
  };
}
