// The lobby: pick a game and its options, seat people and bots, create, share, join, watch.
import { api, el, navigate, storeToken, playerName, setPlayerName, baseGame } from "./api";
import type { GameInfo, MatchSummary } from "./api";

const PLAIN_NAMES: Record<string, string> = {
  cage: "Rubik's Cage",
  axiom: "Axiom",
  axia: "AXIA: Slayer Combo",
};

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
  let agents: string[];
  try {
    [games, agents] = await Promise.all([api.games(), api.agents()]);
  } catch (error) {
    root.replaceChildren(el("p", { class: "error", role: "alert", text: `The server did not answer: ${String(error)}` }));
    return;
  }

  const form = el("form", { class: "card create", id: "create-form", "aria-labelledby": "create-title" });
  const gameSelect = el("select", { id: "game-select", name: "game" });
  for (const game of games) {
    gameSelect.append(el("option", { value: game.name, text: game.title || PLAIN_NAMES[game.name] || game.name }));
  }
  const preferred = games.find((g) => g.name === "cage") ? "cage" : games[0]?.name ?? "";
  gameSelect.value = preferred;
  const summary = el("p", { class: "muted", id: "game-summary" });
  const optionsBox = el("fieldset", { class: "options", id: "options" });
  const seatsBox = el("fieldset", { class: "seats", id: "seats" });
  const nameInput = el("input", { id: "player-name", name: "name", autocomplete: "nickname", placeholder: "your name (optional)" });
  nameInput.value = playerName();
  const message = el("p", { class: "error", role: "alert", id: "create-error" });
  const submit = el("button", { type: "submit", class: "primary", id: "create-button", text: "Create match" });

  form.append(
    el("h2", { id: "create-title", text: "New match" }),
    el("label", { for: "game-select", text: "Game" }),
    gameSelect,
    summary,
    optionsBox,
    seatsBox,
    el("label", { for: "player-name", text: "Your name" }),
    nameInput,
    submit,
    message,
  );

  const current = () => games.find((g) => g.name === gameSelect.value)!;

  function seatCount(): number {
    const input = optionsBox.querySelector<HTMLSelectElement>("[data-option=players]");
    if (input) return Number(input.value);
    return 2;
  }

  function renderSeats(): void {
    const previous = [...seatsBox.querySelectorAll<HTMLSelectElement>("select")].map((s) => s.value);
    seatsBox.replaceChildren(el("legend", { text: "Seats" }));
    const n = seatCount();
    const game = current();
    for (let i = 0; i < n; i++) {
      const select = el("select", { id: `seat-${i}`, "data-seat": String(i) });
      select.append(el("option", { value: "you", text: "You (this browser)" }));
      select.append(el("option", { value: "open", text: "Another player (share a link)" }));
      for (const agent of agents) select.append(el("option", { value: `bot:${agent}`, text: `Bot: ${agent}` }));
      select.value = previous[i] ?? (i === 0 ? "you" : agents.includes("greedy") ? "bot:greedy" : `bot:${agents[0]}`);
      const label = game.name === "axiom" ? (i === 0 ? "Black (moves first)" : "White") : `Player ${i}${i === 0 ? " (moves first)" : ""}`;
      seatsBox.append(el("div", { class: "row" }, el("label", { for: `seat-${i}`, text: label }), select));
    }
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
        input.addEventListener("change", renderSeats);
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
      const words = option.doc ? option.doc.charAt(0).toUpperCase() + option.doc.slice(1) : option.name;
      const row = el("div", { class: "row option" }, el("label", { for: id, text: words }), input);
      row.title = `${option.name}: ${option.allowed}`;
      (option.name === "players" ? optionsBox : more).append(row);
    }
    if (more.childElementCount > 1) optionsBox.append(more);
    renderSeats();
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
      const match = await api.create(gameString(), seats);
      for (let i = 0; i < choices.length; i++) {
        if (choices[i] !== "you") continue;
        const joined = await api.join(match.id, i, name || null);
        storeToken(match.id, joined.seat, joined.token);
      }
      navigate(`/play/${match.id}`);
    } catch (error) {
      message.textContent = `Could not create the match: ${error instanceof Error ? error.message : String(error)}`;
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
  lists.append(refresh);

  async function loadLists(): Promise<void> {
    for (const status of ["open", "running", "finished"]) {
      const box = listBoxes[status];
      try {
        const matches = await api.matches(status, 20);
        box.replaceChildren(matches.length ? matchTable(matches, status) : el("p", { class: "muted", text: "None." }));
      } catch (error) {
        box.replaceChildren(el("p", { class: "error", text: String(error) }));
      }
    }
  }
  refresh.addEventListener("click", () => void loadLists());

  root.replaceChildren(el("div", { class: "lobby" }, form, lists));
  void loadLists();
}

function seatWords(match: MatchSummary): string {
  if (!match.seats) return "";
  return match.seats
    .map((s) => (s.kind === "bot" ? `bot ${s.agent ?? s.name ?? ""}` : s.taken ? s.name || "player" : "free seat"))
    .join(" · ");
}

function matchTable(matches: MatchSummary[], status: string): HTMLElement {
  const list = el("ul", { class: "matches" });
  for (const match of matches) {
    const title = PLAIN_NAMES[baseGame(match.game)] ?? match.game;
    const actions = el("span", { class: "actions" });
    const open = (label: string, path: string) => {
      const a = el("a", { href: path, "data-link": "", class: "button", text: label });
      actions.append(a);
    };
    if (status === "open") open("Join", `/play/${match.id}`);
    if (status !== "finished") open("Watch", `/play/${match.id}?watch=1`);
    else open("Replay", `/play/${match.id}?replay=1`);
    let result = match.result_text ? ` — ${match.result_text}` : "";
    if (!result && match.result) {
      const best = Math.max(...match.result);
      const winners = match.result.map((r, i) => (r === best ? i + 1 : 0)).filter(Boolean);
      result = match.result.every((r) => r === best) ? " — draw" : ` — won by player ${winners.join(" & ")}`;
    }
    list.append(
      el(
        "li",
        { "data-match": match.id },
        el("span", { class: "what" }, el("strong", { text: title }), ` ${match.game !== baseGame(match.game) ? match.game : ""} `),
        el("span", {
          class: "who muted",
          text: [seatWords(match), match.plies !== undefined ? `${match.plies} moves` : "", match.created ? new Date(match.created + "Z").toLocaleString() : ""]
            .filter(Boolean)
            .join(" · ") + result,
        }),
        actions,
      ),
    );
  }
  return list;
}
