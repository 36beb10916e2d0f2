// The rules panel: the game's rules summary and notation examples as the server sends them
// (from the game's registry entry, stated for this match's options). The docs are the long form.
import { el } from "./api";
import type { MatchSummary } from "./api";

type GameFacts = MatchSummary["facts"];

/** A seat's name as people read it at the start of a label ("black" → "Black"). */
export function seatName(facts: GameFacts, seat: number): string {
  const name = facts.seats[seat] ?? `player ${seat + 1}`;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function rulesPanel(facts: GameFacts): HTMLElement {
  const details = el("details", { class: "card rules", id: "rules" });
  details.append(el("summary", { text: "Rules" }));
  const sections = facts.rules.map((section) => ({ title: section.title, items: section.items }));
  if (facts.notation.length) {
    sections.push({ title: "Notation", items: facts.notation.map((n) => `${n.text}: ${n.meaning}`) });
  }
  if (!sections.length) sections.push({ title: "Rules", items: ["No rules summary for this game."] });
  for (const section of sections) {
    const list = el("ul");
    for (const item of section.items) list.append(el("li", { text: item }));
    details.append(el("h3", { text: section.title }), list);
  }
  return details;
}
