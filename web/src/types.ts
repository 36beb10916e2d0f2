// Shapes of the server's WebSocket messages (docs/server.md) and the board interface.

import type { components } from "./generated/api";

// The WebSocket frames, generated from the server's pydantic models (scripts/gen-contract.sh).
export type SeatState = components["schemas"]["SeatState"];
export type StateMessage = components["schemas"]["StateFrame"];
/** Any frame the server sends: narrow it by its `type`. */
export type ServerFrame = components["schemas"]["ServerFrame"];

export interface BoardContext {
  /** The game string of the match. */
  game: string;
  /** The view to draw: the seat to move if this browser holds it, else a held seat, else public. */
  view: Record<string, unknown>;
  /** The seat whose view is drawn (null: spectator). */
  viewer: number | null;
  /** Legal moves for the seat this browser may move now (empty otherwise). */
  legal: string[];
  /** Play a move (notation); the server decides. */
  play: (move: string) => void;
  /** True while a move is on its way or in replay. */
  busy: boolean;
  replay: boolean;
  finished: boolean;
  /** The last move in notation, when the game shows it. */
  lastMove: string | null;
  /** The match's game data from GET /api/matches/{id}/data (AXIA: its card set), once loaded. */
  data: { card_set: string | null; cards: unknown } | null;
  /** A move to mark as suggested (the analysis' best move, or a hint), in notation; boards that
   *  can point at it do so and report it on `data-suggested`. */
  suggested?: string | null;
}

export interface Board {
  /** Carries `data-drawn`: what the board drew, read back from its scene (tests, tools). */
  element: HTMLElement;
  update(context: BoardContext): void;
  dispose(): void;
}
