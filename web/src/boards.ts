// The board for each game: the three games' own boards, and a generic board for any other game
// (a plug-in), which lists the structured legal moves as buttons and shows the view as a tree.
import { el } from "./api";
import { createAxiaBoard } from "./axia";
import { createAxiomBoard } from "./axiom3d";
import { createCageBoard } from "./cage3d";
import type { Board, BoardContext, JsonView, LegalMove } from "./types";

/**
 * A game's own board, seen as a board of any game. The frames carry views and moves as JSON
 * objects whatever the game; the registered name says which game's generated types they are,
 * and this is the one place that says so.
 */
function forGame<V, M extends { move: string }>(board: Board<V, M>): Board {
  return {
    element: board.element,
    update: (context) => board.update(context as unknown as BoardContext<V, M>),
    dispose: () => board.dispose(),
    words: board.words ? (move) => board.words!(move as unknown as M) : undefined,
    group: board.group ? (move) => board.group!(move as unknown as M) : undefined,
    scores: board.scores ? (view) => board.scores!(view as unknown as V) : undefined,
  };
}

const OWN_BOARDS: Record<string, () => Board> = {
  cage: () => forGame(createCageBoard()),
  axiom: () => forGame(createAxiomBoard()),
  axia: () => forGame(createAxiaBoard()),
};

/** The board for a game, by its registered name; a game without one gets the generic board. */
export function createBoard(name: string): Board {
  return (OWN_BOARDS[name] ?? createGenericBoard)();
}

/** A move's parts in words: "kind: drop · colour: R · column: 3" (the notation aside). */
export function partsWords(move: LegalMove): string {
  return Object.entries(move)
    .filter(([key]) => key !== "move")
    .map(([key, value]) => `${key}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`)
    .join(" · ");
}

/** One JSON value as a readable tree: objects and arrays as nested lists, the rest as text. */
function tree(value: unknown, depth = 0): HTMLElement {
  if (value === null || typeof value !== "object") {
    return el("span", { class: `leaf ${value === null ? "null" : typeof value}`, text: JSON.stringify(value) ?? "undefined" });
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (!entries.length) return el("span", { class: "leaf empty", text: Array.isArray(value) ? "[]" : "{}" });
  const list = el("ul", { class: "tree" });
  for (const [key, child] of entries) {
    const item = el("li", { "data-key": key }, el("span", { class: "key", text: `${key}: ` }));
    if (child !== null && typeof child === "object" && depth >= 1) {
      // deeper levels start folded: a big view stays readable
      const fold = el("details", {}, el("summary", { text: Array.isArray(child) ? `[${child.length}]` : "{…}" }), tree(child, depth + 1));
      item.append(fold);
    } else item.append(tree(child, depth + 1));
    list.append(item);
  }
  return list;
}

/**
 * The generic board: the legal moves as buttons, each with its parts in words (grouped by
 * kind when the game gives one), and the view as a tree. It reads nothing game-specific, so any
 * registered game is playable in the browser.
 */
export function createGenericBoard(): Board {
  const moves = el("div", { class: "generic-moves", id: "generic-moves", role: "group", "aria-label": "Your moves" });
  const view = el("div", { class: "generic-view", id: "generic-view", "aria-label": "The position" });
  const element = el(
    "div",
    { class: "generic-board" },
    el("p", { class: "muted", text: "This game has no picture of its own: its moves and its position as the engine describes them." }),
    el("h3", { text: "Moves" }),
    moves,
    el("h3", { text: "Position" }),
    view,
  );
  return {
    element,
    update(context: BoardContext<JsonView, LegalMove>) {
      moves.replaceChildren();
      if (!context.legal.length) moves.append(el("p", { class: "muted", text: context.replay ? "Replay." : "Nothing to choose now." }));
      for (const move of context.legal) {
        const parts = partsWords(move);
        const button = el("button", { type: "button", class: "move generic-move", "data-move": move.move, text: move.move, title: parts || move.move });
        if (context.suggested === move.move) button.classList.add("suggested");
        button.disabled = context.busy;
        button.addEventListener("click", () => context.play(move.move));
        moves.append(el("div", { class: "generic-choice" }, button, parts ? el("small", { class: "muted", text: ` ${parts}` }) : null));
      }
      view.replaceChildren(tree(context.view));
      element.dataset.drawn = JSON.stringify(context.view);
      element.dataset.suggested = context.suggested ?? "";
    },
    dispose() {},
  };
}
