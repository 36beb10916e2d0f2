// AXIA as a table: territories (6x6 spaces on a 3x3 card grid) with wounds and defeats, hand,
// dice, face-up row, items, scoring slots, opponents, effect targets — all chosen by clicking.
// Clicks select parts of moves (a die, a space, a card, a slot), as the server's structured
// legal moves name them; the moves offered are those legal moves that have every selected part.
// Notation is never read: a move's text is only shown and sent back.
import { el } from "./api";
import type { AxiaMove, AxiaPlayer, AxiaView, Board, BoardContext } from "./types";

interface Space {
  region: string;
  beast: string;
  die: string;
  critical: number | null;
}
interface ScoringSide {
  kind: string;
  points: number;
  region?: string;
  regions?: string[];
  scope?: string;
  type?: string;
  beast?: string;
}
interface CardsFile {
  territory: { id: string; spaces: Space[] }[];
  scoring: { id: string; row: ScoringSide; column: ScoringSide }[];
  items: { id: string; effect: string; vp: number }[];
}
/** The card set the match was created with (GET /api/matches/{id}/data), by card id. */
interface CardIndex {
  territory: Map<string, CardsFile["territory"][number]>;
  scoring: Map<string, CardsFile["scoring"][number]>;
  items: Map<string, CardsFile["items"][number]>;
}
const NO_CARDS: CardIndex = { territory: new Map(), scoring: new Map(), items: new Map() };

function indexCards(raw: unknown): CardIndex {
  const file = raw as Partial<CardsFile> | null;
  if (!file || typeof file !== "object") return NO_CARDS;
  const list = <T>(items: T[] | undefined): T[] => (Array.isArray(items) ? items : []);
  return {
    territory: new Map(list(file.territory).map((c) => [c.id, c])),
    scoring: new Map(list(file.scoring).map((c) => [c.id, c])),
    items: new Map(list(file.items).map((c) => [c.id, c])),
  };
}

/** A Slayer as drawn: the view's player, with their final score sheet at the end. */
type PlayerView = AxiaPlayer & { sheet?: NonNullable<AxiaView["score_sheets"]>[number] };

const COLS = "abcdef";
const REGION_CLASS: Record<string, string> = { forest: "r-forest", desert: "r-desert", mountain: "r-mountain", lake: "r-lake", temple: "r-temple" };
/** The kinds of move offered as buttons (nothing on the table stands for them alone). */
const BUTTON_KINDS: ReadonlySet<AxiaMove["kind"]> = new Set(["end", "deck", "decline", "redraw", "change", "waste"]);

/** A thing on the table a move can name, as "what:which": "die:P1", "space:12", "cell:4". */
type Part = string;

/** The things a move names, from its parts (a space of the mover's territory by its index, a
 *  cell by its index, a slot by its index, cards and items by id, a face-up card by place). */
function partsOf(move: AxiaMove): Part[] {
  const parts: Part[] = [];
  if (move.die !== undefined) parts.push(`die:${move.die}`);
  for (const space of move.space !== undefined ? [move.space] : move.spaces ?? []) parts.push(`space:${space}`);
  for (const card of move.card !== undefined ? [move.card] : move.cards ?? []) parts.push(`card:${card}`);
  if (move.cell !== undefined) parts.push(`cell:${move.cell}`);
  if (move.slot !== undefined) parts.push(`slot:${move.slot}`);
  if (move.item !== undefined) parts.push(`item:${move.item}`);
  if (move.index !== undefined) parts.push(`take:${move.index}`);
  if (move.kind === "deck") parts.push("deck");
  return parts;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function pretty(id: string): string {
  return id.split("_").map(capital).join(" ");
}

/** A beast's full name: "sentinel_mountain" -> "Mountain Sentinel", "acolyte_3" -> "Acolyte 3". */
export function beastName(beast: string): string {
  const [name, extra] = beast.split("_");
  if (!extra) return capital(name);
  const numbered = [...extra].every((c) => c >= "0" && c <= "9");
  if (numbered || name === "acolyte" || name === "temple") return `${capital(name)} ${capital(extra)}`;
  return `${capital(extra)} ${capital(name)}`;
}

const REGIONS = ["forest", "desert", "mountain", "lake", "temple"];

function scoringText(side: ScoringSide | undefined): string {
  if (!side) return "";
  const what = side.region ?? side.regions?.join("/") ?? side.type ?? side.beast ?? "";
  return `${pretty(side.kind)} ${what} (${side.scope ?? "lines"}) ${side.points} VP`;
}

export function createAxiaBoard(): Board<AxiaView, AxiaMove> {
  const element = el("div", { class: "axia-board" });
  let context: BoardContext<AxiaView, AxiaMove> | null = null;
  /** The parts clicked so far, each with the name the table shows for it. */
  let selection: { part: Part; name: string }[] = [];
  let cards: CardIndex = NO_CARDS;
  let cardsFrom: unknown = undefined;

  /** The legal moves that name every part of ``need``. */
  function candidatesFor(need: Part[]): AxiaMove[] {
    return (context?.legal ?? []).filter((m) => {
      const parts = partsOf(m);
      return need.every((x) => parts.includes(x));
    });
  }

  function clickPart(part: Part, name: string): void {
    if (!context || context.busy) return;
    let next = selection.some((s) => s.part === part) ? selection : [...selection, { part, name }];
    if (!candidatesFor(next.map((s) => s.part)).length) next = [{ part, name }];
    const found = candidatesFor(next.map((s) => s.part));
    if (found.length === 1) {
      selection = [];
      context.play(found[0].move);
      return;
    }
    selection = found.length ? next : [];
    render();
  }

  /**
   * A clickable thing standing for ``part``, shown to people as ``name`` (also on `data-tokens`,
   * for tests and tools): live when some legal move names it.
   */
  function clickable(node: HTMLElement, part: Part, name: string, label: string): HTMLElement {
    const live = context !== null && !context.busy && candidatesFor([part]).length > 0;
    node.setAttribute("data-tokens", name);
    node.setAttribute("data-part", part);
    if (live) {
      node.classList.add("live");
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", label);
      if (selection.some((s) => s.part === part)) node.classList.add("selected");
      node.addEventListener("click", () => clickPart(part, name));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          clickPart(part, name);
        }
      });
    }
    return node;
  }

  function spaceNode(card: string | null, space: number, mark: string, interactive: boolean): HTMLElement {
    const row = Math.floor(space / 6);
    const col = space % 6;
    const name = `${COLS[col]}${row + 1}`;
    const node = el("div", { class: "space", "data-space": name });
    if (!card) {
      node.classList.add("empty");
      return node;
    }
    const local = (row % 2) * 2 + (col % 2);
    const data = cards.territory.get(card)?.spaces[local];
    if (data) {
      node.dataset.beast = data.beast;
      node.classList.add(REGION_CLASS[data.region] ?? "r-other");
      node.append(
        el("span", { class: "beast", text: beastName(data.beast) }),
        el("span", { class: "die-need", text: `${data.die === "magic" ? "✦M" : "P"}${data.critical ? ` ${data.critical}` : ""}` }),
      );
      node.title = `${name}: ${beastName(data.beast)} · ${data.region} · needs a ${data.die} die${data.critical ? ` · critical ${data.critical}` : " · no number"}`;
    } else node.append(el("span", { class: "beast", text: name }));
    if (mark === "w") {
      node.classList.add("wounded");
      node.append(el("span", { class: "mark", text: "╱", "aria-label": "wounded" }));
    } else if (mark === "X") {
      node.classList.add("defeated");
      node.append(el("span", { class: "mark", text: "✕", "aria-label": "defeated" }));
    }
    const state = mark === "w" ? "wounded" : mark === "X" ? "defeated" : "healthy";
    return interactive ? clickable(node, `space:${space}`, name, `${node.title || name}, ${state}`) : node;
  }

  /**
   * A territory: column slots across the top, row slots down the left, and the 3x3 card grid
   * with the space names of the notation along its edges (a–f across, 1–6 down).
   */
  function territory(player: PlayerView, index: number, mine: boolean): HTMLElement {
    const box = el("div", { class: `territory${mine ? " mine" : ""}`, "data-player": String(index) });
    const top = el("div", { class: "slots slots-top" });
    for (let c = 0; c < 3; c++) top.append(slot(player, 3 + c, mine));
    const left = el("div", { class: "slots left" });
    for (let r = 0; r < 3; r++) left.append(slot(player, r, mine));
    const letters = el("div", { class: "axis letters", "aria-hidden": "true" });
    const numbers = el("div", { class: "axis numbers", "aria-hidden": "true" });
    for (let k = 0; k < 3; k++) {
      letters.append(el("div", { class: "pair" }, el("span", { text: COLS[2 * k] }), el("span", { text: COLS[2 * k + 1] })));
      numbers.append(el("div", { class: "pair" }, el("span", { text: String(2 * k + 1) }), el("span", { text: String(2 * k + 2) })));
    }
    const cells = el("div", { class: "cells" });
    for (let cell = 0; cell < 9; cell++) {
      const cr = Math.floor(cell / 3);
      const cc = cell % 3;
      const card = player.grid[cell];
      const cellName = `${"ABC"[cc]}${cr + 1}`;
      const cardNode = el("div", { class: "card-cell" + (card ? "" : " open"), "data-cell": cellName });
      if (card) {
        for (let lr = 0; lr < 2; lr++)
          for (let lc = 0; lc < 2; lc++) {
            const space = (2 * cr + lr) * 6 + 2 * cc + lc;
            cardNode.append(spaceNode(card, space, player.marks[space] ?? ".", mine));
          }
        cardNode.title = card;
      } else {
        cardNode.append(el("span", { class: "cell-name", text: cellName }));
        // Named "@B2" on the table's hooks, apart from the column slot "C1".
        if (mine) clickable(cardNode, `cell:${cell}`, `@${cellName}`, `empty cell ${cellName}`);
      }
      cells.append(cardNode);
    }
    box.append(el("span", { class: "corner" }), el("span", { class: "corner" }), top);
    box.append(el("span", { class: "corner" }), el("span", { class: "corner" }), letters);
    box.append(left, numbers, cells);
    return box;
  }

  function slot(player: PlayerView, index: number, mine: boolean): HTMLElement {
    const name = index < 3 ? `R${index + 1}` : `C${index - 2}`;
    const card = player.scoring[index];
    const node = el("div", { class: "slot", "data-slot": name });
    // Whether the slot scores now is the engine's word (the final score sheet's rows); the
    // browser does not work it out.
    const active = player.sheet?.scoring_cards.find((row) => row.slot === name)?.active ?? false;
    if (card && active) {
      node.classList.add("active");
      node.setAttribute("data-active", "true");
    }
    if (card) {
      const data = cards.scoring.get(card);
      node.append(el("strong", { text: card }));
      node.title = `${name}: ${card} — ${scoringText(index < 3 ? data?.row : data?.column)}`;
      node.append(el("small", { text: `${(index < 3 ? data?.row : data?.column)?.points ?? ""} VP${active ? " ✓" : ""}` }));
      if (active) node.title += " — active";
    } else node.append(el("small", { text: name }));
    return mine ? clickable(node, `slot:${index}`, name, `scoring slot ${name}`) : node;
  }

  function render(): void {
    if (!context) return;
    const given = context.view;
    if (!given.players) {
      element.replaceChildren(el("p", { class: "muted", text: "Waiting for the table…" }));
      return;
    }
    if (context.data?.cards !== cardsFrom) {
      cardsFrom = context.data?.cards;
      cards = indexCards(cardsFrom);
      element.dataset.cardSet = context.data?.card_set ?? "";
    }
    const view = { ...given, players: given.players.map((p, i): PlayerView => ({ ...p, sheet: given.score_sheets?.[i] })) };
    const me = context.viewer;
    const mine = me !== null ? view.players[me] : null;

    const head = el(
      "div",
      { class: "axia-head" },
      el("span", { class: "pill", "data-round": String(Math.min(8, view.round + 1)), text: `Round ${Math.min(8, view.round + 1)} of 8` }), // the view counts rounds from 0
      el("span", { class: "pill", "data-phase": view.phase, text: `Phase: ${view.phase}` }),
      el("span", { class: "pill", text: `Starting Slayer: player ${view.starting_slayer + 1}` }),
      view.effect
        ? el("span", { class: "pill effect", id: "axia-effect", text: `Effect: ${pretty(view.effect.name)}${view.effect.region ? ` (${view.effect.region})` : ""} — choose a target` })
        : null,
    );

    const dice = el("div", { class: "dice", role: "group", "aria-label": "Dice pool" });
    for (const die of view.dice) {
      const node = el(
        "div",
        { class: `die${die.magic ? " magic" : ""}${die.used_by !== null ? " used" : ""}`, "data-die": die.die, "data-used-by": die.used_by === null ? "" : String(die.used_by) },
        el("span", { class: "pips", text: die.value === null ? "?" : String(die.value) }),
        el("small", { class: "die-name", text: die.die }),
        die.used_by !== null ? el("small", { class: "used-by", text: `✓ player ${die.used_by + 1}` }) : null,
      );
      node.title = `${die.magic ? "magic" : "physical"} die ${die.die}${die.used_by !== null ? `, used by player ${die.used_by + 1}` : ""}`;
      dice.append(clickable(node, `die:${die.die}`, die.die, `${die.magic ? "magic" : "physical"} die ${die.die} showing ${die.value ?? "?"}`));
    }

    const row = el("div", { class: "face-up", role: "group", "aria-label": "Face-up row" });
    view.face_up.forEach((card, i) => {
      const node = el("div", { class: "mini-card" }, el("strong", { text: card ?? "—" }));
      if (card) node.append(miniSpaces(card));
      row.append(clickable(node, `take:${i}`, `take ${i + 1}`, `face-up card ${card ?? "none"}`));
    });
    row.append(clickable(el("div", { class: "mini-card deck" }, el("strong", { text: "Deck" }), el("small", { text: `${view.territory_deck} cards` })), "deck", "deck", "draw from the deck"));

    const hand = el("div", { class: "hand", role: "group", "aria-label": "Your hand" });
    for (const card of mine?.hand ?? []) {
      const node = el("div", { class: "mini-card" }, el("strong", { text: card }), miniSpaces(card));
      hand.append(clickable(node, `card:${card}`, card, `hand card ${card}`));
    }
    for (const card of mine?.offer ?? []) {
      const data = cards.scoring.get(card);
      const node = el("div", { class: "mini-card scoring" }, el("strong", { text: card }), el("small", { text: `Row: ${scoringText(data?.row)}` }), el("small", { text: `Col: ${scoringText(data?.column)}` }));
      hand.append(clickable(node, `card:${card}`, card, `scoring card ${card}`));
    }
    for (const item of mine?.items ?? []) {
      const data = cards.items.get(item);
      const node = el("div", { class: "mini-card item" }, el("strong", { text: item }), el("small", { text: data ? `${pretty(data.effect)} · ${data.vp} VP` : "" }));
      hand.append(clickable(node, `item:${item}`, item, `item ${item}`));
    }

    const others = el("div", { class: "opponents" });
    view.players.forEach((player, i) => {
      if (i === me) return;
      others.append(
        el(
          "div",
          { class: "opponent" },
          el("h4", { text: `Player ${i + 1} · ${player.score ?? "?"} VP · ${player.hand_count} in hand · ${player.item_count} items${player.committed ? " · placed" : ""}` }),
          territory(player, i, false),
        ),
      );
    });

    const choices = el("div", { class: "axia-choices", id: "axia-choices" });
    if (context.legal.length && !selection.length)
      choices.append(el("span", { class: "muted", text: "Your choice: click what is outlined (a die, a space, a card, an empty cell or a slot)." }));
    const extras = context.legal.filter((m) => BUTTON_KINDS.has(m.kind));
    if (selection.length) {
      choices.append(el("span", { class: "muted", text: `Selected ${selection.map((s) => s.name).join(" + ")}: ` }));
      for (const move of candidatesFor(selection.map((s) => s.part))) {
        const b = el("button", { type: "button", class: "move", "data-move": move.move, text: move.move });
        b.addEventListener("click", () => {
          selection = [];
          context?.play(move.move);
        });
        choices.append(b);
      }
      const clear = el("button", { type: "button", text: "Clear" });
      clear.addEventListener("click", () => {
        selection = [];
        render();
      });
      choices.append(clear);
    } else if (extras.length) {
      for (const move of extras) {
        const b = el("button", { type: "button", class: "move", "data-move": move.move, text: move.move });
        b.addEventListener("click", () => context?.play(move.move));
        choices.append(b);
      }
    }
    // A suggested move (analysis best move or hint), in words beside the table.
    element.dataset.suggested = context.suggested ?? "";
    if (context.suggested) choices.append(el("p", { class: "suggested-move", "data-suggested": context.suggested, text: `Suggested: ${context.suggested}` }));

    const scores = el("table", { class: "score-sheet", id: "score-sheet" }, el("tr", {}, el("th", { text: "Slayer" }), el("th", { text: "Score" }), el("th", { text: "Defeated" })));
    view.players.forEach((player, i) => {
      const defeated = [...player.marks].filter((m) => m === "X").length;
      scores.append(el("tr", { class: i === me ? "me" : "" }, el("td", { text: `Player ${i + 1}${i === me ? " (you)" : ""}` }), el("td", { text: String(player.score ?? "?") }), el("td", { text: String(defeated) })));
    });

    const parts: (HTMLElement | null)[] = [
      head,
      el("div", { class: "axia-row" }, el("section", {}, el("h3", { text: "Dice" }), dice), el("section", {}, el("h3", { text: "Face-up row" }), row)),
      choices,
      el(
        "div",
        { class: "axia-main" },
        mine
          ? el(
              "section",
              { class: "my-area" },
              el("h3", { text: `Your territory · ${mine.score ?? 0} VP` }),
              territory(mine, me!, true),
              legend(),
              el("h3", { text: "Your hand, items and offers" }),
              hand,
            )
          : null,
        el("section", { class: "others" }, el("h3", { text: mine ? "Opponents" : "Territories" }), others),
      ),
      el("section", {}, el("h3", { text: view.phase === "over" ? "Final score sheet" : "Scores" }), scores, view.solo_rank ? el("p", { class: "rank", text: `Solo rank: ${view.solo_rank}` }) : null),
      cards.territory.size ? null : el("p", { class: "muted", text: "No card data for this match (yet): spaces show their names only." }),
    ];
    element.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    publishDrawn();
  }

  /**
   * What the table shows, read back from the page (not from the view): round and phase from the
   * head, the dice, the face-up row, this viewer's hand, every territory (cards per cell, wound
   * and defeat marks and beasts per space, scoring cards per slot) and the score sheet. On
   * `data-drawn` (tests and tools compare it with the engine's view).
   */
  function publishDrawn(): void {
    const text = (node: Element | null | undefined) => (node?.textContent ?? "").trim();
    const round = element.querySelector<HTMLElement>(".axia-head [data-round]")?.dataset.round;
    const phase = element.querySelector<HTMLElement>(".axia-head [data-phase]")?.dataset.phase;
    const dice = [...element.querySelectorAll<HTMLElement>(".dice .die")].map((node) => {
      const pips = text(node.querySelector(".pips"));
      const by = node.dataset.usedBy ?? "";
      return { die: node.dataset.die ?? "", value: pips === "?" ? null : Number(pips), used_by: by === "" ? null : Number(by) };
    });
    const faceUp = [...element.querySelectorAll(".face-up .mini-card:not(.deck) strong")].map((n) => (text(n) === "—" ? null : text(n)));
    const hand = [...element.querySelectorAll(".hand .mini-card:not(.scoring):not(.item) strong")].map((n) => text(n));
    const players = [...element.querySelectorAll<HTMLElement>(".territory[data-player]")]
      .sort((a, b) => Number(a.dataset.player) - Number(b.dataset.player))
      .map((box) => {
        const grid = [...box.querySelectorAll<HTMLElement>(".card-cell")].map((c) => (c.classList.contains("open") ? null : c.title));
        const marks = Array.from({ length: 36 }, () => ".");
        const beasts: (string | null)[] = Array.from({ length: 36 }, () => null);
        for (const space of box.querySelectorAll<HTMLElement>(".space[data-space]")) {
          const name = space.dataset.space ?? "";
          const index = (Number(name.slice(1)) - 1) * 6 + COLS.indexOf(name[0]);
          marks[index] = space.classList.contains("defeated") ? "X" : space.classList.contains("wounded") ? "w" : ".";
          beasts[index] = space.dataset.beast ?? null;
        }
        const scoring: (string | null)[] = Array.from({ length: 6 }, () => null);
        const active: boolean[] = Array.from({ length: 6 }, () => false);
        for (const slot of box.querySelectorAll<HTMLElement>(".slot[data-slot]")) {
          const name = slot.dataset.slot ?? "";
          const index = name[0] === "R" ? Number(name[1]) - 1 : Number(name[1]) + 2;
          scoring[index] = text(slot.querySelector("strong")) || null;
          active[index] = slot.classList.contains("active");
        }
        return { player: Number(box.dataset.player), grid, marks: marks.join(""), beasts, scoring, active };
      });
    const scores = [...element.querySelectorAll("#score-sheet tr")].slice(1).map((row) => text(row.querySelectorAll("td")[1]));
    element.dataset.drawn = JSON.stringify({
      round: round ? Number(round) : null,
      phase: phase ?? null,
      dice,
      face_up: faceUp,
      hand,
      players,
      scores,
    });
  }

  function miniSpaces(card: string): HTMLElement {
    const box = el("div", { class: "mini-spaces" });
    const data = cards.territory.get(card);
    for (const space of data?.spaces ?? []) {
      box.append(el("span", { class: `space tiny ${REGION_CLASS[space.region] ?? ""}`, title: `${beastName(space.beast)} · ${space.region} · ${space.die} die${space.critical ? ` · critical ${space.critical}` : ""}`, text: `${beastName(space.beast)}${space.critical ? ` ${space.critical}` : ""}${space.die === "magic" ? " ✦" : ""}` }));
    }
    return box;
  }

  /** What the colours and marks of a space mean. */
  function legend(): HTMLElement {
    const regions = el("span", { class: "legend-regions" });
    for (const region of REGIONS) regions.append(el("span", { class: `swatch-region ${REGION_CLASS[region]}`, text: region }));
    return el(
      "div",
      { class: "legend muted", id: "axia-legend" },
      el("strong", { text: "Legend: " }),
      regions,
      el("span", { text: " · each space names its beast; P = needs a physical die, ✦M = needs a magic die; a number is the critical value · ╱ wounded · ✕ defeated · spaces a1–f6: letter across, number down · slots R1–R3 score rows (left), C1–C3 columns (top); cells A1–C3 hold territory cards" }),
    );
  }

  return {
    element,
    // the game ends on points: the final view's scores give each Slayer's place
    scores: (view) => view.players?.map((p) => p.score) ?? null,
    update(ctx) {
      const moves = (c: BoardContext<AxiaView, AxiaMove>) => c.legal.map((m) => m.move).join("|");
      const versionChanged = !context || moves(context) !== moves(ctx);
      context = ctx;
      if (versionChanged) selection = [];
      render();
    },
    dispose() {},
  };
}
