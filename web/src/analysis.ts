// The analysis board in the browser (docs/analysis.md): after the game, an evaluation line along
// the replay scrubber, the best move of each ply on the board and the blunders marked in the move
// list; during a game against bots, a "Hint" button. Every number comes from the server's search
// (GET/POST /api/matches/{id}/analysis, POST /api/matches/{id}/hint); nothing is computed here.
import { call, el } from "./api";
import type { components } from "./generated/api";

type Schemas = components["schemas"];
export type MatchAnalysis = Schemas["MatchAnalysis"];
export type AnalysedPly = Schemas["AnalysedPly"];
export type AnalysedMove = Schemas["AnalysedMove"];
export type Hint = Schemas["Hint"];

const SVG = "http://www.w3.org/2000/svg";
/** The analysis board's own styles (kept with its code; added once). */
const STYLE = `
.analysis { margin-top: .6rem; }
.analysis h3 { margin: .2rem 0; font-size: 1rem; }
.eval-line { display: block; width: 100%; height: 72px; background: linear-gradient(#f4f1ea 50%, #3b3b3b 50%); border-radius: 4px; cursor: pointer; }
.eval-line .eval-mid { stroke: #999; stroke-width: 1; stroke-dasharray: 4 3; }
.eval-line .eval-path { fill: none; stroke: #2a9d8f; stroke-width: 2.5; }
.eval-line .eval-cursor { stroke: #e9a400; stroke-width: 2; }
.eval-line .eval-mark { stroke-width: 9; stroke-linecap: round; }
.eval-line .eval-mark.blunder { stroke: #d62828; }
.eval-line .eval-mark.mistake { stroke: #f77f00; }
.eval-line .eval-mark.inaccuracy { stroke: #fcbf49; }
.best-move .best { color: #b07c00; }
.best-move .judgement.blunder, .move-list .mark.blunder { color: #d62828; font-weight: bold; }
.best-move .judgement.mistake, .move-list .mark.mistake { color: #f77f00; font-weight: bold; }
.move-list .mark.inaccuracy { color: #b08900; }
.move-list .mark { margin-left: .25rem; }
.move-list li.blunder { background: #fde2e2; }
button.suggested, .cage-grid button.suggested, .legal button.hinted { outline: 3px solid #e9a400; outline-offset: 1px; }
.hint-box { margin-top: .4rem; gap: .5rem; }
.hint-text { font-weight: bold; }
`;

function ensureStyles(): void {
  if (document.getElementById("analysis-style")) return;
  document.head.append(el("style", { id: "analysis-style", text: STYLE }));
}

/** Move-list marks, as chess players write them. */
const MARKS: Record<string, string> = { blunder: "??", mistake: "?", inaccuracy: "?!" };

const post = <T>(path: string, body: unknown): Promise<T> => call<T>("POST", path, body);

/** The analysis of a finished match: the whole game, or one seat's decisions (from its view). */
export async function fetchAnalysis(matchId: string, seat: number | null, token: string | null): Promise<MatchAnalysis> {
  const path = `/api/matches/${encodeURIComponent(matchId)}/analysis`;
  if (token) return post<MatchAnalysis>(path, { token });
  return call<MatchAnalysis>("GET", seat === null ? path : `${path}?seat=${seat}`);
}

/** The best move for the token's seat now (the server refuses outside games against bots). */
export function fetchHint(matchId: string, token: string): Promise<Hint> {
  return post<Hint>(`/api/matches/${encodeURIComponent(matchId)}/hint`, { token });
}

/** A value in words: the proven result, else a percentage. */
export function valueWords(move: AnalysedMove): string {
  return move.solved ?? `${Math.round(100 * move.value)}%`;
}

/** What a percentage means, for a tooltip beside it. */
export const VALUE_MEANING =
  "The search's estimate of the share of the points the player to move can expect from here: 100% a sure win, 50% even, 0% a sure loss.";

/** A hint's value for the player who asked: "a proven win for you", "77% expected score for you". */
export function hintValueWords(move: AnalysedMove): string {
  if (move.solved) return `a proven ${move.solved} for you`;
  return `${Math.round(100 * move.value)}% expected score for you`;
}

export interface AnalysisPanel {
  element: HTMLElement;
  /** Ask the server for the analysis (seat: whose decisions, for hidden-card games). */
  load(matchId: string, seat: number | null, hidden: boolean): Promise<void>;
  /** Move the chart's cursor to replay frame ``ply``. */
  setPly(ply: number): void;
  /** The best move in the position of frame ``ply`` (null where that ply was not analysed). */
  bestAt(ply: number): AnalysedMove | null;
  /** Mark the analysed moves (inaccuracy/mistake/blunder) in the move list's items. */
  markMoves(list: HTMLElement): void;
}

/**
 * The evaluation line: one point per analysed decision (frame ``ply``, the position before move
 * ``ply + 1``). Two players, whole game: the chance of player 1 (seat 0), so the line rises when
 * player 1 stands better. Otherwise (more players, or one seat's analysis): the value of the seat
 * to move at that point. Blunders are red dots; clicking the chart jumps to that ply.
 */
export function createAnalysisPanel(players: number, frames: number, onSelect: (ply: number) => void, onLoaded: () => void): AnalysisPanel {
  ensureStyles();
  const status = el("p", { class: "muted analysis-status", id: "analysis-status", text: "" });
  const chart = document.createElementNS(SVG, "svg");
  chart.setAttribute("id", "eval-line");
  chart.setAttribute("class", "eval-line");
  chart.setAttribute("viewBox", `0 0 ${Math.max(1, frames - 1)} 100`);
  chart.setAttribute("preserveAspectRatio", "none");
  chart.setAttribute("role", "img");
  const best = el("p", { class: "best-move", id: "best-move", "aria-live": "polite" });
  const element = el("div", { class: "analysis", id: "analysis" }, el("h3", { text: "Analysis" }), chart, best, status);
  let analysis: MatchAnalysis | null = null;
  const byPly = new Map<number, AnalysedPly>();
  let cursorPly = 0;

  function perspective(ply: AnalysedPly, value: number): number {
    return players === 2 && analysis?.seat === null && ply.mover === 1 ? 1 - value : value;
  }

  function draw(): void {
    chart.replaceChildren();
    const span = Math.max(1, frames - 1);
    const mid = document.createElementNS(SVG, "line");
    mid.setAttribute("x1", "0");
    mid.setAttribute("x2", String(span));
    mid.setAttribute("y1", "50");
    mid.setAttribute("y2", "50");
    mid.setAttribute("class", "eval-mid");
    chart.append(mid);
    const plies = analysis?.plies ?? [];
    const points = plies.map((p) => [p.ply, 100 - 100 * perspective(p, p.best[0]?.value ?? 0.5)] as [number, number]);
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", points.map(([x, y]) => `${x},${y.toFixed(1)}`).join(" "));
    line.setAttribute("class", "eval-path");
    line.setAttribute("vector-effect", "non-scaling-stroke");
    chart.append(line);
    for (const p of plies) {
      if (!p.label) continue;
      const dot = document.createElementNS(SVG, "line"); // a zero-length round-capped line: a dot that does not stretch
      const y = String(100 - 100 * perspective(p, p.best[0]?.value ?? 0.5));
      dot.setAttribute("x1", String(p.ply));
      dot.setAttribute("x2", String(p.ply));
      dot.setAttribute("y1", y);
      dot.setAttribute("y2", y);
      dot.setAttribute("class", `eval-mark ${p.label}`);
      dot.setAttribute("vector-effect", "non-scaling-stroke");
      dot.setAttribute("data-ply", String(p.ply));
      chart.append(dot);
    }
    const cursor = document.createElementNS(SVG, "line");
    cursor.setAttribute("x1", String(cursorPly));
    cursor.setAttribute("x2", String(cursorPly));
    cursor.setAttribute("y1", "0");
    cursor.setAttribute("y2", "100");
    cursor.setAttribute("class", "eval-cursor");
    cursor.setAttribute("vector-effect", "non-scaling-stroke");
    chart.append(cursor);
    chart.setAttribute("data-points", String(points.length));
    chart.setAttribute("data-marks", plies.filter((p) => p.label).map((p) => `${p.ply}:${p.label}`).join(" "));
    chart.setAttribute("aria-label", points.length ? `Evaluation over ${points.length} decisions` : "No evaluation yet");
  }

  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    if (!box.width) return;
    onSelect(Math.round(((event.clientX - box.left) / box.width) * Math.max(1, frames - 1)));
  });

  function describe(ply: number): void {
    const found = byPly.get(ply);
    best.replaceChildren();
    best.removeAttribute("data-move");
    if (!found || !found.best.length) {
      best.textContent = analysis ? "No analysis of this position (another seat's turn, or chance)." : "";
      return;
    }
    const top = found.best[0];
    best.setAttribute("data-move", top.move);
    best.append(
      "Best move here: ",
      el("strong", { class: "best", text: top.move }),
      el("span", { class: "value", title: VALUE_MEANING, text: ` (${valueWords(top)} for the player to move)` }),
      top.pv.length > 1 ? el("span", { class: "muted pv", text: ` — line: ${top.pv.join(" ")}` }) : "",
    );
    if (found.label && found.loss !== null) {
      best.append(el("span", { class: `judgement ${found.label}`, text: ` · played next: ${found.played}, ${found.label === "inaccuracy" ? "an" : "a"} ${found.label} (−${Math.round(100 * found.loss)}%)` }));
    }
  }

  draw();
  return {
    element,
    async load(matchId, seat, hidden) {
      analysis = null;
      byPly.clear();
      draw();
      if (hidden && seat === null) {
        status.textContent = "Hidden cards: pick a seat under “Seen by” to see that player's analysis (from their view).";
        describe(cursorPly);
        return;
      }
      status.textContent = "Analysing the game on the server…";
      element.setAttribute("data-state", "loading");
      try {
        analysis = await fetchAnalysis(matchId, hidden ? seat : null, null);
      } catch (error) {
        status.textContent = `No analysis: ${error instanceof Error ? error.message : String(error)}`;
        element.setAttribute("data-state", "error");
        return;
      }
      for (const p of analysis.plies) byPly.set(p.ply, p);
      const plural: Record<string, string> = { blunder: "blunders", mistake: "mistakes", inaccuracy: "inaccuracies" };
      const counts = Object.entries(plural).map(([label, many]) => {
        const n = analysis!.plies.filter((p) => p.label === label).length;
        return `${n} ${n === 1 ? label : many}`;
      });
      status.textContent = `${analysis.plies.length} decisions, ${analysis.seconds_per_ply} s each: ${counts.join(", ")}.`;
      element.setAttribute("data-state", "ready");
      draw();
      onLoaded();
    },
    setPly(ply) {
      cursorPly = ply;
      const cursor = chart.querySelector(".eval-cursor");
      cursor?.setAttribute("x1", String(ply));
      cursor?.setAttribute("x2", String(ply));
      describe(ply);
    },
    bestAt(ply) {
      return byPly.get(ply)?.best[0] ?? null;
    },
    markMoves(list) {
      for (const p of byPly.values()) {
        if (!p.label) continue;
        const item = list.querySelector<HTMLElement>(`li[data-ply="${p.ply + 1}"]`);
        if (!item) continue;
        item.classList.add("judged", p.label);
        item.setAttribute("data-judgement", p.label);
        item.title = `${p.label}: −${Math.round(100 * (p.loss ?? 0))}% (best was ${p.best[0]?.move ?? "?"})`;
        item.append(el("span", { class: `mark ${p.label}`, "aria-label": p.label, text: MARKS[p.label] }));
      }
    },
  };
}

export interface HintControl {
  element: HTMLElement;
  /** The suggested move to mark (null when none is shown). */
  current(): string | null;
  /** Show or hide the button: only for a held seat on its turn, in a game against bots. */
  render(options: { matchId: string; seat: number | null; token: string | null; againstBots: boolean; ready: boolean; version: number }): void;
}

/** The "Hint" button: asks the server for the best move of the seat to move; the answer is shown
 *  beside it, its move button is marked and the board draws it, until the position changes. */
export function createHintControl(onHint: () => void, describe: (move: string) => string | null = () => null): HintControl {
  ensureStyles();
  const button = el("button", { type: "button", id: "hint", text: "Hint", title: "Ask the server's search for a good move (games against bots)" });
  const output = el("span", { id: "hint-text", class: "hint-text", "aria-live": "polite" });
  const element = el("div", { class: "inline hint-box" }, button, output);
  let shown: { version: number; move: string } | null = null;
  let last: { matchId: string; token: string | null; version: number } = { matchId: "", token: null, version: -1 };
  button.addEventListener("click", async () => {
    const { matchId, token, version } = last;
    if (!token) return;
    button.disabled = true;
    output.textContent = "thinking…";
    try {
      const hint = await fetchHint(matchId, token);
      if (last.version !== version) return; // the position moved on meanwhile
      shown = { version, move: hint.best.move };
      const words = describe(hint.best.move);
      output.textContent = `try ${hint.best.move}${words ? ` — ${words}` : ""} (${hintValueWords(hint.best)})`;
      output.title = VALUE_MEANING;
      output.setAttribute("data-move", hint.best.move);
      onHint();
    } catch (error) {
      output.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      button.disabled = false;
    }
  });
  return {
    element,
    current() {
      return shown && shown.version === last.version ? shown.move : null;
    },
    render({ matchId, seat, token, againstBots, ready, version }) {
      last = { matchId, token, version };
      element.hidden = !againstBots || seat === null || !token;
      button.disabled = !ready;
      if (!shown || shown.version !== version) {
        shown = null;
        if (output.textContent !== "thinking…") output.textContent = "";
        output.removeAttribute("data-move");
      }
    },
  };
}
