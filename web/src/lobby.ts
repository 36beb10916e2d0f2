// The lobby: pick a game and its options, seat people and bots, create, share, join, watch.
import { api, el, navigate, storeToken, playerName, setPlayerName, gameName, parseTime, agoWords, ApiError } from "./api";
import type { AgentInfo, GameInfo, MatchListItem } from "./api";
import { createClockChooser, createWaitingList, timeControlWords } from "./clock";
import { ratedField } from "./account";

/** Open and running matches idle longer than this are left out while the box is ticked. */
export const IDLE_HIDE_SECONDS = 86400;
const HIDE_IDLE_KEY = "gameshelf:hide-idle";
const ALL_BOTS_KEY = "gameshelf:all-bots";

function isBool(option: { default: string; allowed: string }): boolean {
  return option.default === "true" || option.default === "false";
}

function playerRange(game: GameInfo): [number, number] | null {
  const option = game.options.find((o) => o.name === "players");
  if (!option) return null;
  const m = /(\d+)\s*\.\.\s*(\d+)/.exec(option.allowed);
  return m ? [Number(m[1]), Number(m[2])] : [2, 4];
}

export function quoteValue(value: string): string {
  return /^[A-Za-z0-9_.:+-]+$/.test(value) ? value : `"${value.replace(/"/g, "'")}"`;
}

export async function renderLobby(root: HTMLElement): Promise<void> {
  document.title = "gameshelf — lobby";
  root.replaceChildren(el("p", { class: "muted", text: "Loading the lobby…" }));
  let games: GameInfo[];
  let agents: AgentInfo[];
  try {
    [games, agents] = await Promise.all([api.games(), api.agents()]);
  } catch (error) {
    root.replaceChildren(el("p", { class: "error", role: "alert", text: `The server did not answer: ${String(error)}` }));
    return;
  }

  const form = el("form", { class: "card create", id: "create-form", "aria-labelledby": "create-title" });
  const gameSelect = el("select", { id: "game-select", name: "game" });
  for (const game of games) {
    gameSelect.append(el("option", { value: game.name, text: game.title }));
  }
  // The server lists the game to start from first.
  gameSelect.value = games[0]?.name ?? "";
  const summary = el("p", { class: "muted", id: "game-summary" });
  const optionsBox = el("fieldset", { class: "options", id: "options" });
  const seatsBox = el("fieldset", { class: "seats", id: "seats" });
  const nameInput = el("input", { id: "player-name", name: "name", autocomplete: "nickname", placeholder: "your name (optional)" });
  nameInput.value = playerName();
  const message = el("p", { class: "error", role: "alert", id: "create-error" });
  const submit = el("button", { type: "submit", class: "primary", id: "create-button", text: "Create match" });
  const rated = ratedField(); // enabled once logged in
  const clockChoice = createClockChooser();
  const waiting = createWaitingList("gameshelf — lobby"); // the title shows the count

  form.append(
    el("h2", { id: "create-title", text: "New match" }),
    el("label", { for: "game-select", text: "Game" }),
    gameSelect,
    summary,
    optionsBox,
    seatsBox,
    el("label", { for: "player-name", text: "Your name" }),
    nameInput,
    rated.field,
    clockChoice.field,
    submit,
    message,
  );

  const current = () => games.find((g) => g.name === gameSelect.value)!;

  function seatCount(): number {
    const input = optionsBox.querySelector<HTMLSelectElement>("[data-option=players]");
    if (input) return Number(input.value);
    return 2;
  }

  const agentsNote = el("p", { class: "muted small", id: "agents-note" });
  // The seat menu offers the named levels; the variants and trials stay one tick away (and in
  // the arena and the terminal) for whoever compares bots.
  const allBots = el("input", { type: "checkbox", id: "all-bots" });
  allBots.checked = localStorage.getItem(ALL_BOTS_KEY) === "true";
  const allBotsField = el("label", { class: "check small", for: "all-bots" }, allBots, " Show every bot (research variants and trials)");
  allBots.addEventListener("change", () => {
    localStorage.setItem(ALL_BOTS_KEY, String(allBots.checked));
    renderSeats();
  });

  /** Seats numbered from 1 for people (the protocol's seat index is one less). */
  function renderSeats(): void {
    const previous = [...seatsBox.querySelectorAll<HTMLSelectElement>("select")].map((s) => s.value);
    seatsBox.replaceChildren(el("legend", { text: "Seats" }));
    const n = seatCount();
    const game = current();
    const shown = agents.filter((a) => a.level || allBots.checked);
    const names = shown.map((a) => a.name);
    const fallback = names.includes("greedy") ? "bot:greedy" : names.length ? `bot:${names[0]}` : "open";
    for (let i = 0; i < n; i++) {
      const select = el("select", { id: `seat-${i}`, "data-seat": String(i) });
      select.append(el("option", { value: "you", text: "You (this browser)" }));
      select.append(el("option", { value: "open", text: "Another player (share a link)" }));
      if (shown.length) {
        const group = el("optgroup", { label: "Bots, weakest first" });
        for (const agent of shown) {
          const option = el("option", { value: `bot:${agent.name}`, "data-strength": String(agent.strength), text: `Bot: ${agent.name}${agent.summary ? ` — ${agent.summary}` : ""}` });
          option.title = agent.summary;
          group.append(option);
        }
        select.append(group);
      }
      const wanted = previous[i] ?? (i === 0 ? "you" : fallback);
      // A bot that cannot play the game chosen now is replaced by the default bot.
      select.value = wanted.startsWith("bot:") && !names.includes(wanted.slice(4)) ? fallback : wanted;
      const help = el("small", { class: "seat-help muted", id: `seat-help-${i}` });
      const describe = () => {
        const agent = agents.find((a) => `bot:${a.name}` === select.value);
        help.textContent = agent?.summary ?? "";
      };
      select.addEventListener("change", describe);
      describe();
      const label = `${capitalised(seatName(game, i))}${i === 0 ? " (moves first)" : ""}`;
      seatsBox.append(el("div", { class: "row" }, el("label", { for: `seat-${i}`, text: label }), select), help);
    }
    seatsBox.append(allBotsField, agentsNote);
  }

  // The bots offered are those the server says can play this game string (options included).
  let agentsAsked = 0;
  let agentsTimer: number | undefined;
  async function refreshAgents(): Promise<void> {
    const mine = ++agentsAsked;
    const game = gameString();
    seatsBox.setAttribute("data-agents", "loading");
    try {
      const fit = await api.agents(game);
      if (mine !== agentsAsked) return;
      agents = fit;
      agentsNote.textContent = fit.length ? "" : "No bot can play this game with these options.";
    } catch (error) {
      if (mine !== agentsAsked) return;
      agentsNote.textContent = `Bots unknown for these options: ${error instanceof Error ? error.message : String(error)}`;
    }
    renderSeats();
    // For tests and tools: which game string the offered bots are for.
    seatsBox.setAttribute("data-agents", "ready");
    seatsBox.setAttribute("data-agents-for", game);
  }
  function agentsSoon(): void {
    seatsBox.setAttribute("data-agents", "loading");
    window.clearTimeout(agentsTimer);
    agentsTimer = window.setTimeout(() => void refreshAgents(), 250);
  }

  function renderOptions(): void {
    const game = current();
    summary.textContent = game.summary;
    optionsBox.replaceChildren(el("legend", { text: "Options" }));
    const more = el("details", { id: "more-options" }, el("summary", { text: "More options (table rules and variants)" }));
    const range = playerRange(game);
    for (const option of game.options) {
      // A card-file path names a file on the server: not a choice for a browser player.
      if (option.name === "cards") continue;
      const id = `opt-${option.name}`;
      let input: HTMLInputElement | HTMLSelectElement;
      if (option.name === "players" && range) {
        input = el("select", { id, "data-option": option.name });
        for (let n = range[0]; n <= range[1]; n++) input.append(el("option", { value: String(n), text: n === 1 ? "1 (solo)" : String(n) }));
        input.value = option.default;
        input.addEventListener("change", () => {
          renderSeats();
          agentsSoon();
        });
      } else if (option.choices && option.choices.length) {
        input = el("select", { id, "data-option": option.name });
        for (const choice of option.choices) input.append(el("option", { value: choice, text: choice.replace(/_/g, " ") }));
        input.value = option.default;
      } else if (isBool(option)) {
        input = el("select", { id, "data-option": option.name });
        input.append(el("option", { value: "true", text: "yes" }), el("option", { value: "false", text: "no" }));
        input.value = option.default;
      } else {
        input = el("input", { id, "data-option": option.name, placeholder: option.default === "None" ? "" : option.default });
      }
      input.setAttribute("data-default", option.default);
      if (option.name !== "players") {
        input.addEventListener("change", agentsSoon);
        if (input instanceof HTMLInputElement) input.addEventListener("input", agentsSoon);
      }
      const words = option.doc ? option.doc.charAt(0).toUpperCase() + option.doc.slice(1) : option.name;
      const row = el("div", { class: "row option" }, el("label", { for: id, text: words }), input);
      row.title = `${option.name}: ${option.allowed}`;
      (option.name === "players" ? optionsBox : more).append(row);
    }
    if (more.childElementCount > 1) optionsBox.append(more);
    renderSeats();
    void refreshAgents();
  }

  function gameString(): string {
    const game = current();
    const parts: string[] = [];
    for (const input of optionsBox.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]")) {
      const value = input.value.trim();
      const def = input.getAttribute("data-default") ?? "";
      if (value === "" || value === def) continue;
      parts.push(`${input.getAttribute("data-option")}=${quoteValue(value)}`);
    }
    return parts.length ? `${game.name}(${parts.join(",")})` : game.name;
  }

  gameSelect.addEventListener("change", renderOptions);
  renderOptions();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "";
    submit.disabled = true;
    const name = nameInput.value.trim();
    setPlayerName(name);
    const choices = [...seatsBox.querySelectorAll<HTMLSelectElement>("select")].map((s) => s.value);
    const seats = choices.map((c) => (c.startsWith("bot:") ? { kind: "bot", agent: c.slice(4) } : { kind: "human" }));
    try {
      const match = await api.create(gameString(), seats, undefined, { ...(rated.rated() ? { rated: true } : {}), ...clockChoice.extra() });
      for (let i = 0; i < choices.length; i++) {
        if (choices[i] !== "you") continue;
        const joined = await api.join(match.id, i, name || null);
        storeToken(match.id, joined.seat, joined.token);
      }
      navigate(`/play/${match.id}`);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      message.textContent = `Could not create the match: ${text}`;
      if (error instanceof ApiError) message.setAttribute("data-code", error.code);
      if (error instanceof ApiError && error.code === "agent/unfit") void refreshAgents();
      submit.disabled = false;
    }
  });

  const lists = el("section", { class: "card lists", "aria-labelledby": "matches-title" });
  const joinForm = el(
    "form",
    { class: "join-by-id", id: "join-form" },
    el("label", { for: "join-id", text: "Open a match by id or link" }),
    el("input", { id: "join-id", placeholder: "match id or /play/… link" }),
    el("button", { type: "submit", text: "Open" }),
  );
  joinForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const raw = (joinForm.querySelector("input") as HTMLInputElement).value.trim();
    const id = raw.split("/play/").pop()!.split(/[/?#]/)[0];
    if (id) navigate(`/play/${id}`);
  });
  lists.append(el("h2", { id: "matches-title", text: "Matches" }), joinForm);
  const listBoxes: Record<string, HTMLElement> = {};
  for (const [status, title] of [
    ["open", "Waiting for players"],
    ["running", "Being played"],
    ["finished", "Finished"],
  ] as const) {
    const box = el("div", { class: "match-list", id: `matches-${status}` });
    listBoxes[status] = box;
    lists.append(el("h3", { text: title }), box);
  }
  const refresh = el("button", { type: "button", id: "refresh", text: "Refresh lists" });
  const hideIdle = el("input", { type: "checkbox", id: "hide-idle" });
  hideIdle.checked = localStorage.getItem(HIDE_IDLE_KEY) !== "false";
  lists.append(
    el("div", { class: "inline list-tools" }, refresh, el("label", { class: "check", for: "hide-idle" }, hideIdle, " Hide matches idle over a day")),
  );

  let listsAsked = 0;
  async function loadLists(): Promise<void> {
    const mine = ++listsAsked;
    const idleMax = hideIdle.checked ? IDLE_HIDE_SECONDS : null;
    for (const status of ["open", "running", "finished"]) {
      const box = listBoxes[status];
      try {
        let matches = await api.matches(status, 20, status === "finished" ? null : idleMax);
        if (mine !== listsAsked) return;
        // Also filtered here, for a server that does not know idle_max.
        if (idleMax !== null && status !== "finished") matches = matches.filter((m) => idleSeconds(m) <= idleMax);
        box.replaceChildren(matches.length ? matchTable(matches, status, games) : el("p", { class: "muted", text: "None." }));
      } catch (error) {
        box.replaceChildren(el("p", { class: "error", text: String(error) }));
      }
    }
    lists.setAttribute("data-loaded", String(mine));
  }
  refresh.addEventListener("click", () => void loadLists());
  hideIdle.addEventListener("change", () => {
    localStorage.setItem(HIDE_IDLE_KEY, String(hideIdle.checked));
    void loadLists();
  });

  root.replaceChildren(el("div", { class: "lobby" }, waiting.element, form, lists));
  void loadLists();
  void waiting.refresh();
}

/** Seconds since the match last changed (0 when the server does not say). */
function idleSeconds(match: MatchListItem): number {
  if (typeof match.idle_seconds === "number") return match.idle_seconds;
  const updated = parseTime(match.updated ?? null);
  return updated ? Math.max(0, (Date.now() - updated.getTime()) / 1000) : 0;
}

/** A seat's name as the game's registry entry gives it ("black", "player 2"); a seat past
 * the default options' count (more players chosen) is "player N", counted from 1. */
function seatName(game: GameInfo | undefined, seat: number): string {
  return game?.facts.seats[seat] ?? `player ${seat + 1}`;
}

function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "paula (Black) vs free seat (White)": who sits where. */
function seatWords(match: MatchListItem, game: GameInfo | undefined): string {
  if (!match.seats?.length) return "";
  return match.seats
    .map((s) => `${s.kind === "bot" ? `bot ${s.agent ?? s.name ?? ""}` : s.taken ? s.name || "a guest" : "free seat"} (${capitalised(seatName(game, s.seat))})`)
    .join(" vs ");
}

/** Who set up an open match: the people already seated in it (the lobby seats its creator). */
function hostWords(match: MatchListItem): string {
  const seated = (match.seats ?? []).filter((s) => s.kind === "human" && s.taken).map((s) => s.name || "a guest");
  return seated.length ? `by ${seated.join(" & ")}` : "";
}

/** Take a free seat of an open match and go to it: Join is one click, not watch-then-take. */
async function joinAndPlay(match: MatchListItem, button: HTMLButtonElement, note: HTMLElement): Promise<void> {
  button.disabled = true;
  note.textContent = "";
  try {
    const joined = await api.join(match.id, null, playerName() || null);
    storeToken(match.id, joined.seat, joined.token);
    navigate(`/play/${match.id}`);
  } catch (error) {
    note.textContent = `Could not join: ${error instanceof Error ? error.message : String(error)}`;
    if (error instanceof ApiError) note.setAttribute("data-code", error.code);
    button.disabled = false;
  }
}

function matchTable(matches: MatchListItem[], status: string, games: GameInfo[]): HTMLElement {
  const list = el("ul", { class: "matches" });
  for (const match of matches) {
    const name = gameName(match.game, games.map((g) => g.name), match.name);
    const title = games.find((g) => g.name === name)?.title ?? match.game;
    const actions = el("span", { class: "actions" });
    const note = el("small", { class: "error join-error", role: "alert" });
    const open = (label: string, path: string) => {
      const a = el("a", { href: path, "data-link": "", class: "button", text: label });
      actions.append(a);
    };
    const free = (match.seats ?? []).some((s) => s.kind === "human" && !s.taken);
    if (status === "open" && free) {
      const join = el("button", { type: "button", class: "primary join", "data-join": match.id, text: "Join" });
      join.title = "Take a free seat and play";
      join.addEventListener("click", () => void joinAndPlay(match, join, note));
      actions.append(join);
    }
    if (status !== "finished") open("Watch", `/play/${match.id}?watch=1`);
    else open("Replay", `/play/${match.id}?replay=1`);
    // The server's own words for the result (seats counted from 1; a solo game's score and
    // rank); only an older server without them gets the fallback, also counting from 1.
    let result = match.result_text ? ` — ${match.result_text}` : "";
    if (!result && match.result) {
      const best = Math.max(...match.result);
      const winners = match.result.map((r, i) => (r === best ? i + 1 : 0)).filter(Boolean);
      result =
        match.result.length === 1
          ? ` — score ${match.result[0]}`
          : match.result.every((r) => r === best)
            ? " — draw"
            : ` — won by player ${winners.join(" & ")}`;
    }
    const created = parseTime(match.created);
    const updated = parseTime(match.updated ?? null);
    const idle = status !== "finished" && updated ? `idle ${agoWords(new Date(Date.now() - idleSeconds(match) * 1000))}` : "";
    const terms = el(
      "span",
      { class: "terms" },
      el("span", { class: `badge ${match.rated ? "rated" : "casual"}`, text: match.rated ? "rated" : "casual" }),
      el("span", { class: "badge clock-words", text: timeControlWords(match.time_control) }),
    );
    const item = el(
      "li",
      { "data-match": match.id, "data-rated": String(!!match.rated) },
      el("span", { class: "what" }, el("strong", { text: title }), ` ${match.game !== name ? match.game : ""} `, terms),
      el("span", {
        class: "who muted",
        text: [seatWords(match, games.find((g) => g.name === name)), status === "open" ? hostWords(match) : "", created ? created.toLocaleString() : "", idle]
          .filter(Boolean)
          .join(" · ") + result,
      }),
      actions,
      note,
    );
    if (updated) item.setAttribute("data-idle", String(Math.round(idleSeconds(match))));
    if (result) item.setAttribute("data-result", result.slice(3));
    list.append(item);
  }
  return list;
}
