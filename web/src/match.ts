// The match page shared by every game: board, legal moves, notation box, move list, undo,
// status, seats, share link, rules, game-over screen and replay scrubber.
import { api, el, navigate, storedTokens, storeToken, playerName, gameName, revealInList } from "./api";
import type { MatchData, MatchSummary, ReplayFrame } from "./api";
import type { BoardContext, ClientFrame, LegalMove, ServerFrame, StateMessage } from "./types";
import { rulesPanel, seatName } from "./rules";
import { createBoard } from "./boards";
import { createAnalysisPanel, createHintControl } from "./analysis";
import type { AnalysisPanel } from "./analysis";
import { createClockPanel, timeControlWords } from "./clock";
import { createChatPanel, createRematchControl } from "./chat";
import { createResignControl } from "./resign";
import { icon } from "./icons";
import type { IconName } from "./icons";

/** The legal moves in labelled rows for the buttons: by the board's groups, else by kind. */
function groupMoves(moves: LegalMove[], group: (move: LegalMove) => string): [string, LegalMove[]][] {
  const groups = new Map<string, LegalMove[]>();
  for (const move of moves) {
    const key = group(move);
    const list = groups.get(key) ?? [];
    list.push(move);
    groups.set(key, list);
  }
  return [...groups.entries()];
}

/** A move's kind as a group label ("drop" -> "Drop"); "Moves" for a move with no kind. */
function kindGroup(move: LegalMove): string {
  const kind = typeof move.kind === "string" ? move.kind.split("_").join(" ") : "";
  return kind ? kind.charAt(0).toUpperCase() + kind.slice(1) : "Moves";
}

export async function renderMatch(root: HTMLElement, matchId: string, params: URLSearchParams): Promise<() => void> {
  let summary: MatchSummary;
  try {
    summary = await api.match(matchId);
  } catch (error) {
    root.replaceChildren(
      el("p", { class: "error", role: "alert", text: `No such match: ${error instanceof Error ? error.message : String(error)}` }),
      el("a", { href: "/", "data-link": "", text: "Back to the lobby" }),
    );
    return () => {};
  }
  const game = summary.game;
  let names: string[] = [];
  try {
    names = (await api.games()).map((g) => g.name);
  } catch {
    /* no list: the board falls back to the move list */
  }
  const name = gameName(game, names, summary.name);
  // Title, seat names and rules come from the game's registry entry, at this match's options.
  const facts = summary.facts;
  /** A seat as people name it (the protocol's seat index is 0-based; the names are not). */
  const seatLabel = (seat: number): string => seatName(facts, seat);
  document.title = `gameshelf — ${facts.title}`;

  let tokens = storedTokens(matchId);
  let held: number[] = [];
  let state: StateMessage | null = null;
  let busy = false;
  let socket: WebSocket | null = null;
  let closed = false;
  let requestId = 0;
  /** The replay shown: the server's frames (each ply's views), the ply and whose view is drawn. */
  let replay: { frames: ReplayFrame[]; ply: number; seat: string } | null = null;
  let matchData: MatchData | null = null;
  let overDismissed = false;
  let typed: { id: number; text: string } | null = null;
  let recordMoves: string[] | null = null;
  let recordAsked = false;
  const board = createBoard(name);
  /** A move in a player's words, where the board has them (null: the notation says it). */
  const moveWords = (move: LegalMove | undefined): string | null => (move && board.words ? board.words(move) : null);
  /** The structures of the moves played, by ply, where this page saw them offered. */
  const playedMoves = new Map<number, LegalMove>();
  /** The structure of ``move`` among the moves this browser may play now, if it is one. */
  const legalNow = (move: string | null): LegalMove | null => context().legal.find((m) => m.move === move) ?? null;
  // The analysis board (docs/analysis.md): a hint against bots; after the game, the analysis.
  const hint = createHintControl(() => renderAll(), (move) => moveWords(legalNow(move) ?? undefined));
  // Clocks, chat and rematch (docs/server.md): the server keeps the time; these only draw it.
  const clockPanel = createClockPanel((seat) => seatLabel(seat));
  const chat = createChatPanel(matchId, (frame) => send(frame));
  const rematch = createRematchControl(matchId, (frame) => send(frame));
  let analysisPanel: AnalysisPanel | null = null;
  // The match's game data (AXIA: the card set it was created with) for the board to draw.
  void api
    .data(matchId)
    .then((data) => {
      matchData = data;
      if (replay) setReplayPly(replay.ply);
      else board.update(context());
    })
    .catch(() => undefined);

  // --- layout --------------------------------------------------------------------------
  const status = el("p", { class: "status", id: "status", role: "status", "aria-live": "polite" });
  const seatsList = el("ul", { class: "seat-list", id: "seat-list" });
  const message = el("p", { class: "message", id: "message", role: "alert" });
  const legalBox = el("div", { class: "legal", id: "legal-moves", "data-ready": "false", "aria-label": "Legal moves" });
  const notationInput = el("input", {
    id: "notation",
    name: "notation",
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": "notation-help",
    placeholder: facts.notation.length ? `e.g. ${facts.notation.map((n) => n.text).join(", ")}` : "a move in notation",
  });
  const notationButton = el("button", { type: "submit", id: "notation-send", text: "Play" });
  const notationForm = el(
    "form",
    { class: "notation", id: "notation-form" },
    el("label", { for: "notation", text: "Type a move" }),
    el("div", { class: "inline" }, notationInput, notationButton),
    el("small", { id: "notation-help", class: "muted", text: "Any legal move in the game's notation (see the rules panel)." }),
  );
  const undoButton = el("button", { type: "button", id: "undo", text: "Undo my last move", title: "Take back your last move, and a bot's reply after it (key: u)" });
  const resign = createResignControl((frame) => send({ ...frame, id: ++requestId }));
  const moveList = el("ol", { class: "move-list", id: "move-list", "aria-label": "Moves played" });
  const share = el("div", { class: "share", id: "share" });
  const replayBox = el("section", { class: "replay card", id: "replay", hidden: "" });
  // What was agreed at creation: rated or casual, and the clock.
  const terms = el(
    "p",
    { class: "terms", id: "match-terms", "data-rated": String(!!summary.rated) },
    el("span", { class: `badge ${summary.rated ? "rated" : "casual"}`, text: summary.rated ? "rated" : "casual" }),
    el("span", { class: "badge clock-words", text: timeControlWords(summary.clock) }),
  );
  const over = el("div", { class: "game-over", id: "game-over", role: "dialog", "aria-modal": "false", "aria-labelledby": "game-over-title", hidden: "" });

  const afterGame = el("div", { class: "after-game", id: "after-game" });
  const side = el(
    "aside",
    { class: "side" },
    clockPanel.element,
    el("section", { class: "card" }, el("h2", { text: "Your move" }), message, legalBox, notationForm, undoButton, resign.element, hint.element, afterGame),
    el("section", { class: "card" }, el("h2", { text: "Moves" }), moveList),
    el("section", { class: "card" }, el("h2", { text: "Seats" }), seatsList, share),
    chat.element,
    rulesPanel(facts),
  );
  const boardWrap = el("section", { class: "board-wrap", "aria-label": "Board" }, board.element);
  root.replaceChildren(
    el(
      "div",
      { class: "match", "data-game": name },
      el("div", { class: "match-head" }, el("h1", { text: facts.title }), el("code", { class: "game-string", text: game }), terms, status),
      el("div", { class: "match-body" }, el("div", { class: "main-col" }, boardWrap, replayBox), side),
      over,
    ),
  );

  // --- helpers ---------------------------------------------------------------------------
  function heldSeats(): number[] {
    return Object.keys(tokens).map(Number).sort((a, b) => a - b);
  }

  function activeSeat(): number | null {
    if (!state) return null;
    if (held.includes(state.to_move)) return state.to_move;
    return null;
  }

  function viewSeat(): number | null {
    const active = activeSeat();
    if (active !== null) return active;
    return held.length ? held[0] : null;
  }

  function send(frame: ClientFrame): void {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      message.textContent = "Not connected; reconnecting…";
      return;
    }
    socket.send(JSON.stringify(frame));
  }

  /** Send a move; returns its request id (null when nothing was sent). */
  function play(move: string): number | null {
    const seat = activeSeat();
    if (!state || seat === null || busy || replay) return null;
    busy = true;
    message.textContent = "";
    message.removeAttribute("data-code");
    legalBox.setAttribute("data-ready", "false");
    for (const b of legalBox.querySelectorAll("button")) (b as HTMLButtonElement).disabled = true;
    const id = ++requestId;
    send({ type: "move", seat, move, version: state.version, id });
    return id;
  }

  /**
   * The held seat that may undo now, from the server's `can_undo` (a missing field is false).
   * Against a bot this takes back your move and the bot's replies after it.
   */
  function undoSeat(): number | null {
    if (!state || replay || state.status !== "running") return null;
    const s = state;
    const able = held.filter((seat) => s.seats[String(seat)]?.can_undo === true);
    if (!able.length) return null;
    if (s.last_move && able.includes(s.last_move.player)) return s.last_move.player;
    return able[0];
  }

  function undo(): void {
    const seat = undoSeat();
    if (!state || seat === null || busy) return;
    busy = true;
    send({ type: "undo", seat, version: state.version, id: ++requestId });
  }

  function context(): BoardContext {
    const seat = viewSeat();
    const seatState = seat !== null && state ? state.seats[String(seat)] : undefined;
    const active = activeSeat();
    const legal = active !== null && state && !busy ? state.seats[String(active)]?.legal ?? [] : [];
    const suggested = hint.current();
    return {
      game,
      view: seatState?.view ?? state?.public ?? {},
      viewer: seat,
      legal,
      play,
      busy,
      replay: false,
      finished: state?.status === "finished",
      lastMove: state?.last_move?.move ?? null,
      data: matchData,
      suggested,
      suggestion: legal.find((m) => m.move === suggested) ?? null,
    };
  }

  function describeResult(s: StateMessage): string {
    const text = s.result_text ?? "the game is over";
    if (!s.result || s.result.length === 1) return text;
    if (held.length === 1) {
      const mine = s.result[held[0]];
      const best = Math.max(...s.result);
      if (s.result.every((r) => r === s.result![0])) return text.toLowerCase() === "draw" ? "Draw" : `Draw — ${text}`;
      return mine === best ? `You won — ${text}` : `You lost — ${text}`;
    }
    return text;
  }

  function renderStatus(): void {
    if (!state) {
      status.textContent = "Connecting…";
      return;
    }
    const s = state;
    let text: string;
    if (s.status === "open") text = "Waiting for players to take the free seats.";
    else if (s.status === "finished") text = `Game over: ${describeResult(s)}`;
    else if (s.to_move < 0) text = "Dealing / rolling…";
    else {
      const who = seatLabel(s.to_move);
      const info = summary.seats[s.to_move];
      const named = info?.kind === "bot" ? `${who} (bot ${info.agent ?? ""})` : info?.name ? `${who} (${info.name})` : who;
      text = held.includes(s.to_move) ? `Your turn — ${named}` : `${named} to move`;
      if (held.length > 1 && held.includes(s.to_move)) text += " · hot-seat: pass the device";
    }
    // Players' moves only: AXIA's deals and rolls are plies, not moves anyone made.
    status.textContent = s.status === "finished" ? `${text} · ${s.decisions} moves` : `${text} · move ${s.decisions + 1}`;
    status.setAttribute("data-status", s.status);
  }

  function renderLegal(): void {
    const ctx = context();
    legalBox.replaceChildren();
    if (replay) {
      legalBox.append(el("p", { class: "muted", text: "Replay: use the scrubber below the board." }));
    } else if (!state || state.status !== "running" || activeSeat() === null) {
      legalBox.append(
        el("p", {
          class: "muted",
          text: !state ? "Connecting…" : state.status === "finished" ? "The game is over." : held.length ? "Waiting for the other side." : "You are watching.",
        }),
      );
    } else {
      for (const [label, moves] of groupMoves(ctx.legal, board.group ?? kindGroup)) {
        const row = el("div", { class: "move-group" }, el("span", { class: "group-label", text: label }));
        for (const move of moves) {
          const button = el("button", { type: "button", class: "move", "data-move": move.move, text: move.move });
          const words = moveWords(move);
          if (words) button.title = words;
          button.addEventListener("click", () => play(move.move));
          row.append(button);
        }
        legalBox.append(row);
      }
    }
    const ready = !!state && state.status === "running" && activeSeat() !== null && !busy && !replay;
    legalBox.setAttribute("data-ready", String(ready));
    legalBox.setAttribute("data-version", String(state?.version ?? -1));
    // the moves offered, as structures (tests and tools choose on their parts as boards do)
    legalBox.setAttribute("data-legal", JSON.stringify(ready ? ctx.legal : []));
    notationInput.disabled = !ready;
    notationButton.disabled = !ready;
    undoButton.disabled = busy || undoSeat() === null;
    undoButton.hidden = !held.length;
    // a seated human may resign a running game (the seat to move, else the first held)
    resign.render(state?.status === "running" && held.length && !replay ? activeSeat() ?? held[0] : null, busy);
    const hintSeat = activeSeat();
    const hinted = hint.current();
    if (hinted) legalBox.querySelector(`button[data-move="${CSS.escape(hinted)}"]`)?.classList.add("hinted");
    hint.render({
      matchId,
      seat: hintSeat,
      token: hintSeat === null ? null : tokens[String(hintSeat)] ?? null,
      // no hints while a rated match runs (the server refuses them too)
      againstBots: !summary.rated && summary.seats.length > 1 && summary.seats.every((s) => s.kind === "bot" || held.includes(s.seat)) && held.length === 1,
      ready,
      version: state?.version ?? -1,
    });
    notationForm.hidden = !held.length || !!replay;
    undoButton.hidden = !held.length || !!replay;
    chat.setReplay(!!replay);
  }

  /** After a game with hidden information the moves come from the record. */
  async function loadRecordMoves(): Promise<void> {
    if (recordAsked) return;
    recordAsked = true;
    try {
      recordMoves = (await api.record(matchId)).moves.map((m) => m.move);
    } catch {
      recordAsked = false;
      return;
    }
    if (!replay) renderMoves(shownMoves(), null);
  }

  function shownMoves(): string[] | undefined {
    if (state?.moves != null) return state.moves;
    if (state?.status === "finished") {
      if (recordMoves) return recordMoves;
      void loadRecordMoves();
    }
    return undefined;
  }

  function renderMoves(moves: string[] | undefined, highlight: number | null): void {
    moveList.replaceChildren();
    if (moves === undefined) {
      const text =
        state?.status === "finished"
          ? `${state.plies} moves (loading the record…)`
          : `${state?.plies ?? 0} moves (hidden information: shown after the game)`;
      moveList.append(el("li", { class: "muted hidden-moves", text }));
      return;
    }
    moves.forEach((move, i) => {
      const played = playedMoves.get(i + 1);
      const words = played?.move === move ? moveWords(played) : null;
      const item = el("li", { "data-ply": String(i + 1), "data-move": move });
      if (words) {
        item.append(el("span", { class: "words", text: words }), " ", el("code", { class: "notation", text: move }));
        item.title = move;
      } else item.textContent = move;
      if (highlight !== null && i + 1 === highlight) item.classList.add("current");
      if (replay) {
        item.tabIndex = 0;
        item.addEventListener("click", () => setReplayPly(i + 1));
      }
      moveList.append(item);
    });
    const last = highlight !== null ? moveList.querySelector(".current") : moveList.lastElementChild;
    revealInList(moveList, last);
  }

  function renderSeats(): void {
    seatsList.replaceChildren();
    summary.seats.forEach((seat) => {
      const who = seat.kind === "bot" ? `bot ${seat.agent ?? seat.name ?? ""}` : seat.taken ? seat.name || "player" : "free";
      const item = el("li", { "data-seat": String(seat.seat) }, el("strong", { text: `${seatLabel(seat.seat)}: ` }), who);
      if (held.includes(seat.seat)) item.append(el("span", { class: "badge", text: "you" }));
      if (state && state.to_move === seat.seat && state.status === "running") item.classList.add("to-move");
      if (seat.kind === "human" && !seat.taken && summary.status === "open") {
        const take = el("button", { type: "button", class: "take-seat", "data-seat": String(seat.seat), text: "Take this seat" });
        take.addEventListener("click", async () => {
          try {
            const joined = await api.join(matchId, seat.seat, playerName() || null);
            storeToken(matchId, joined.seat, joined.token);
            tokens = storedTokens(matchId);
            summary = await api.match(matchId);
            connect(true);
          } catch (error) {
            message.textContent = `Could not take the seat: ${error instanceof Error ? error.message : String(error)}`;
          }
        });
        item.append(" ", take);
      }
      seatsList.append(item);
    });
    share.replaceChildren();
    if (summary.status !== "finished") {
      const link = `${location.origin}/play/${matchId}`;
      const input = el("input", { id: "share-link", readonly: "", value: link, "aria-label": "Join link" });
      const copy = el("button", { type: "button", text: "Copy link" });
      copy.addEventListener("click", () => {
        input.select();
        void navigator.clipboard?.writeText(link).catch(() => undefined);
      });
      share.append(el("p", { class: "muted", text: "Invite: this link carries only the match id." }), el("div", { class: "inline" }, input, copy));
    }
  }

  function renderOver(): void {
    if (!state || state.status !== "finished" || replay || overDismissed) {
      over.hidden = true;
      // The rematch stays one click away once the dialog is closed.
      if (state?.status === "finished" && !replay && rematch.element.parentElement !== afterGame) afterGame.replaceChildren(rematch.element);
      return;
    }
    over.hidden = false;
    const results = el("ul", { class: "results", id: "results" });
    for (const line of resultLines(state)) results.append(el("li", { text: line }));
    const replayButton = el("button", { type: "button", id: "open-replay", class: "primary", text: "Replay the game" });
    replayButton.addEventListener("click", () => void startReplay());
    const close = el("button", { type: "button", id: "close-over", text: "Look at the board" });
    close.addEventListener("click", () => {
      overDismissed = true;
      over.hidden = true;
    });
    const lobby = el("a", { href: "/", "data-link": "", class: "button", text: "Back to the lobby" });
    over.replaceChildren(
      el("div", { class: "game-over-box" }, el("h2", { id: "game-over-title", text: "Game over" }), el("p", { class: "result", id: "result-text", text: describeResult(state) }), results, el("div", { class: "inline" }, replayButton, close, lobby), rematch.element),
    );
    replayButton.focus();
  }

  /** Who sits in a seat, in words: "paula (Black)", "bot greedy (Player 2)", "Player 3". */
  function seatWho(seat: number): string {
    const info = summary.seats[seat];
    const who = info?.kind === "bot" ? `bot ${info.agent ?? ""}` : info?.name ?? "";
    const role = seatLabel(seat);
    return `${who ? `${who} (${role})` : role}${held.includes(seat) ? " — you" : ""}`;
  }

  /**
   * One line per seat for the game-over dialog: the place and points where the board reads
   * scores from the final view (AXIA: its returns are a scale for programs); otherwise win,
   * draw or loss.
   */
  function resultLines(s: StateMessage): string[] {
    const returns = s.result ?? [];
    const scores = board.scores?.(s.public);
    if (scores && scores.every((x): x is number => typeof x === "number")) {
      if (scores.length === 1) return [`${seatWho(0)}: ${scores[0]} points`];
      return scores.map((points, seat) => {
        const place = 1 + scores.filter((other) => other > points).length;
        const shared = scores.filter((other) => other === points).length > 1 ? " (shared)" : "";
        return `${seatWho(seat)}: ${ordinal(place)} place${shared}, ${points} points`;
      });
    }
    const best = Math.max(...returns);
    const allEqual = returns.every((r) => r === best);
    return returns.map((r, seat) => `${seatWho(seat)}: ${returns.length === 1 ? `score ${r}` : allEqual ? "draw" : r === best ? "win" : "loss"}`);
  }

  function renderAll(): void {
    renderStatus();
    renderLegal();
    renderSeats();
    if (!replay) {
      renderMoves(shownMoves(), null);
      board.update(context());
    }
    renderOver();
  }

  // --- replay ----------------------------------------------------------------------------
  /**
   * Replays draw the server's frames: each ply's views computed by the engine (public, the
   * seats this browser holds, and every seat once the game is over). Nothing is replayed here.
   */
  async function startReplay(): Promise<void> {
    let frames: ReplayFrame[];
    try {
      const finished = (state?.status ?? summary.status) === "finished";
      const mine = heldSeats().map((seat) => tokens[String(seat)]).filter((t): t is string => !!t);
      frames = (await api.replay(matchId, mine, finished)).frames;
    } catch (error) {
      message.textContent = `No replay yet: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    if (!frames.length) return;
    // Each move's structure is among the legal moves of the frame before it, where listed.
    frames.forEach((frame, ply) => {
      const played = ply ? frames[ply - 1].legal?.find((m) => m.move === frame.move) : undefined;
      if (played) playedMoves.set(ply, played);
    });
    const seats = Object.keys(frames[0].views);
    const preferred = held.find((seat) => seats.includes(String(seat)));
    replay = { frames, ply: 0, seat: preferred !== undefined ? String(preferred) : "public" };
    replayBox.hidden = false;
    const n = frames.length - 1;
    const range = el("input", { type: "range", id: "replay-range", min: "0", max: String(n), value: "0", "aria-label": "Move number" });
    const label = el("span", { id: "replay-ply", "aria-live": "polite" });
    // Icons drawn in SVG (symbol glyphs are missing from some fonts); the words name each button.
    const button = (id: string, words: string, delta: number | "start" | "end", glyph: IconName, shown: boolean) => {
      const b = el("button", { type: "button", id, "aria-label": words, title: words }, glyph === "next" ? null : icon(glyph), shown ? words : null, glyph === "next" ? icon(glyph) : null);
      b.addEventListener("click", () => {
        if (!replay) return;
        const target = delta === "start" ? 0 : delta === "end" ? n : replay.ply + delta;
        setReplayPly(target);
      });
      return b;
    };
    // Whose side the picture shows (hidden information: each seat's own cards, or the table's).
    const viewer = el("select", { id: "replay-viewer", "aria-label": "Seen by" });
    for (const seat of seats) {
      const words = seat === "public" ? "Everyone (the table)" : `${seatLabel(Number(seat))}${held.includes(Number(seat)) ? " (you)" : ""}`;
      viewer.append(el("option", { value: seat, text: words }));
    }
    viewer.value = replay.seat;
    viewer.addEventListener("change", () => {
      if (!replay) return;
      replay.seat = viewer.value;
      setReplayPly(replay.ply);
    });
    const exit = el("button", { type: "button", id: "replay-exit", text: "Leave replay" });
    exit.addEventListener("click", () => {
      replay = null;
      analysisPanel = null;
      replayBox.hidden = true;
      overDismissed = true;
      renderAll();
    });
    range.addEventListener("input", () => setReplayPly(Number(range.value)));
    replayBox.replaceChildren(
      el("h2", { text: "Replay" }),
      el("div", { class: "inline scrub" }, button("replay-start", "Start", "start", "first", false), button("replay-prev", "Back", -1, "prev", true), range, button("replay-next", "Next", 1, "next", true), button("replay-end", "End", "end", "last", false)),
      label,
      ...(seats.length > 1 ? [el("label", { class: "inline muted", for: "replay-viewer" }, "Seen by ", viewer)] : []),
      exit,
    );
    // After the game: the evaluation line under the scrubber (hidden cards: the chosen seat's).
    // Hidden cards where some seat's view differs from the table's (perfect information: equal).
    const hidden = [frames[0], frames[frames.length - 1]].some((f) => Object.entries(f.views).some(([k, v]) => k !== "public" && JSON.stringify(v) !== JSON.stringify(f.views.public)));
    const panel = createAnalysisPanel(summary.seats.length, frames.length, (ply) => setReplayPly(ply), () => replay && setReplayPly(replay.ply));
    analysisPanel = panel;
    const loadAnalysis = () => {
      if (!replay || (state?.status ?? summary.status) !== "finished") return;
      void panel.load(matchId, replay.seat === "public" ? null : Number(replay.seat), hidden);
    };
    viewer.addEventListener("change", loadAnalysis);
    replayBox.append(panel.element);
    loadAnalysis();
    replayBox.addEventListener("keydown", (event) => {
      if (event.key === "ArrowLeft" && event.target !== range) setReplayPly((replay?.ply ?? 0) - 1);
      if (event.key === "ArrowRight" && event.target !== range) setReplayPly((replay?.ply ?? 0) + 1);
    });
    renderAll();
    setReplayPly(0);
    (replayBox.querySelector("#replay-next") as HTMLButtonElement).focus();
  }

  function setReplayPly(ply: number): void {
    if (!replay) return;
    const frames = replay.frames;
    const n = frames.length - 1;
    ply = Math.max(0, Math.min(n, ply));
    replay.ply = ply;
    const frame = frames[ply];
    (replayBox.querySelector("#replay-range") as HTMLInputElement).value = String(ply);
    const label = replayBox.querySelector("#replay-ply") as HTMLElement;
    const words = moveWords(playedMoves.get(ply));
    const who = frame.player !== null && frame.player >= 0 ? seatLabel(frame.player) : "chance";
    label.textContent =
      ply > 0 ? `After move ${ply} of ${n}: ${who} played ${frame.move ?? "(hidden)"}${words ? ` (${words})` : ""}` : `Start position (${n} moves)`;
    label.setAttribute("data-ply", String(ply));
    label.setAttribute("data-seat", replay.seat);
    renderMoves(
      frames.slice(1).map((f) => f.move ?? "?"),
      ply,
    );
    analysisPanel?.markMoves(moveList);
    analysisPanel?.setPly(ply);
    const seat = replay.seat;
    const view = frame.views[seat] ?? frame.views.public ?? {};
    const best = analysisPanel?.bestAt(ply)?.move ?? null;
    board.update({
      ...context(),
      view,
      viewer: seat === "public" || !(seat in frame.views) ? null : Number(seat),
      legal: [],
      busy: true,
      replay: true,
      finished: ply === n,
      lastMove: frame.move,
      suggested: best,
      // each frame lists its position's legal moves where nothing is hidden
      suggestion: frame.legal?.find((m) => m.move === best) ?? null,
    });
  }

  // --- connection ------------------------------------------------------------------------
  function connect(fresh: boolean): void {
    if (fresh && socket) {
      socket.onclose = null;
      socket.close();
    }
    tokens = storedTokens(matchId);
    held = params.get("watch") ? [] : heldSeats();
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/matches/${encodeURIComponent(matchId)}`;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      const hello: ClientFrame = { type: "hello", tokens: held.map((s) => tokens[String(s)]) };
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = async (event) => {
      const data = JSON.parse(String(event.data)) as ServerFrame;
      if (data.type === "welcome") {
        held = data.seats ?? [];
        chat.reconnected();
        chat.setSeats(held, summary.seats.map((s) => seatLabel(s.seat)));
        rematch.setHeld(held);
      } else if (data.type === "chat") {
        chat.receive(data.messages);
      } else if (data.type === "rematch") {
        rematch.news(data, held);
        // Everyone agreed: go straight to the new match (one click per side in all).
        if (data.next && held.length && !closed) navigate(`/play/${data.next}`);
      } else if (data.type === "state") {
        const previous = state;
        // The move just played, if it was one this page offered: its structure, for its words.
        const offered = previous ? Object.values(previous.seats).flatMap((seat) => seat.legal ?? []) : [];
        const played = offered.find((m) => m.move === data.last_move?.move);
        if (previous && played && data.plies === previous.plies + 1) playedMoves.set(data.plies, played);
        state = data;
        clockPanel.update(data.clock, held);
        busy = false;
        // A typed move leaves the box once the server took it; a refused one stays to correct.
        if (typed && state.ack !== undefined && Number(state.ack) === typed.id) {
          if (notationInput.value.trim() === typed.text) notationInput.value = "";
          typed = null;
        }
        if (!previous || previous.status !== state.status || state.status === "open") {
          try {
            summary = await api.match(matchId);
          } catch {
            /* keep the old summary */
          }
        }
        renderAll();
      } else if (data.type === "error") {
        busy = false;
        if (typed && data.id !== undefined && Number(data.id) === typed.id) {
          typed = null;
          notationInput.focus();
          notationInput.select();
        }
        // The sentence is for people; the code stays on the element for programs and tests.
        message.textContent = String(data.message);
        message.setAttribute("data-code", String(data.code));
        if (data.code === "state/stale-version") send({ type: "sync" });
        renderLegal();
        board.update(context());
      }
    };
    ws.onclose = () => {
      if (closed) return;
      status.textContent = "Connection lost; reconnecting…";
      setTimeout(() => {
        if (!closed) connect(false);
      }, 1000);
    };
  }

  notationForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const move = notationInput.value.trim();
    if (!move) return;
    const id = play(move);
    if (id !== null) typed = { id, text: move };
  });
  undoButton.addEventListener("click", undo);
  const keyHandler = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (event.key === "u" && !undoButton.disabled) undo();
    if (event.key === "/" || event.key === "m") {
      event.preventDefault();
      notationInput.focus();
    }
    if (event.key === "Escape" && !over.hidden) {
      overDismissed = true;
      over.hidden = true;
    }
  };
  document.addEventListener("keydown", keyHandler);

  renderAll();
  connect(false);
  if (params.get("replay") && summary.status === "finished") void startReplay();

  return () => {
    closed = true;
    document.removeEventListener("keydown", keyHandler);
    socket?.close();
    board.dispose();
    clockPanel.dispose();
  };
}

export function goLobby(): void {
  navigate("/");
}

/** 1st, 2nd, 3rd, 4th. */
function ordinal(n: number): string {
  return `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}
