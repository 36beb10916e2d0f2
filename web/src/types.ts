// Shapes of the server's WebSocket messages (docs/server.md), the games' views and legal moves,
// and the board interface. Every shape is generated from the server's models and the games'
// own types (scripts/gen-contract.sh): nothing here restates one by hand.

import type { components } from "./generated/api";

type Schemas = components["schemas"];

// The WebSocket frames.
export type SeatState = Schemas["SeatState"];
export type StateMessage = Schemas["StateFrame"];
/** Any frame the server sends: narrow it by its `type`. */
export type ServerFrame = Schemas["ServerFrame"];
/** Any frame the browser sends: one of the contract's client frames, chosen by its `type`. */
export type ClientFrame = Schemas["ClientFrame"];
/** A view as a frame carries it: a JSON object, whatever the game. */
export type JsonView = SeatState["view"];
/** A legal move as a frame carries it: its notation, and its parts as the game describes them. */
export type LegalMove = Schemas["LegalMove"];

// Each game's view and legal moves, as the game states them (its view and details modules).
export type AxiomView = Schemas["AxiomView"];
export type AxiomMove = Schemas["AxiomMove"];
export type AxiomCell = Schemas["AxiomCell"];
export type CageView = Schemas["CageView"];
export type CageMove = Schemas["CageMove"];
export type AxiaView = Schemas["AxiaView"];
export type AxiaMove = Schemas["AxiaMove"];
export type AxiaPlayer = Schemas["AxiaPlayer"];

export interface BoardContext<V = JsonView, M extends { move: string } = LegalMove> {
  /** The game string of the match. */
  game: string;
  /** The view to draw: the seat to move if this browser holds it, else a held seat, else public. */
  view: V;
  /** The seat whose view is drawn (null: spectator). */
  viewer: number | null;
  /** The moves this browser may play now, as structures (empty otherwise). */
  legal: M[];
  /** Play a move: the `move` (notation) of one of `legal`; the server decides. */
  play: (move: string) => void;
  /** True while a move is on its way or in replay. */
  busy: boolean;
  replay: boolean;
  finished: boolean;
  /** The last move in notation, when the game shows it (a label: boards never read it). */
  lastMove: string | null;
  /** The match's game data from GET /api/matches/{id}/data (AXIA: its card set), once loaded. */
  data: { card_set: string | null; cards: unknown } | null;
  /** A move to mark as suggested (the analysis' best move, or a hint), in notation; boards
   *  report it on `data-suggested`. */
  suggested?: string | null;
  /** The suggested move's structure, where the position's legal moves are known (boards point
   *  at it from its parts). */
  suggestion?: M | null;
}

export interface Board<V = JsonView, M extends { move: string } = LegalMove> {
  /** Carries `data-drawn`: what the board drew, read back from its scene (tests, tools). */
  element: HTMLElement;
  update(context: BoardContext<V, M>): void;
  dispose(): void;
  /** A move in a player's words, from its parts (null: the notation says it). */
  words?(move: M): string | null;
  /** The label of the group a move is listed under in the move list (default: its kind). */
  group?(move: M): string;
  /** Each seat's points in a final view, where the game ends on points (null: it does not). */
  scores?(view: V): (number | null)[] | null;
}
