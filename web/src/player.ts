// A player's page (/players/{name}): ratings per game and player count, the games waiting for
// their move, and their games, newest first.
import { accountApi, type PlayerPage } from "./account";
import { api, el, parseTime } from "./api";

/** Each game's title by its registered name, as the server's game list gives it. */
let titles: Record<string, string> = {};

function title(name: string): string {
  return titles[name] ?? name;
}

function gameRow(game: PlayerPage["games"][number]): HTMLElement {
  const date = parseTime(game.date);
  const outcome = game.status === "finished" ? (game.outcome ?? "—") : game.your_turn ? "your turn" : game.status;
  return el(
    "tr",
    { class: `game ${game.outcome ?? game.status}`, "data-match": game.match },
    el("td", {}, el("a", { href: `/play/${game.match}`, "data-link": "", text: title(game.name) })),
    el("td", { class: "muted", text: game.game }),
    el("td", { class: "outcome", text: outcome }),
    el("td", { text: game.result_text ?? "" }),
    el("td", { text: game.rated ? "rated" : "" }),
    el("td", { text: date ? date.toLocaleString() : "" }),
  );
}

function gamesTable(id: string, games: PlayerPage["games"]): HTMLElement {
  const head = el(
    "tr",
    {},
    ...["Game", "Options", "Result", "Ending", "Rated", "Date"].map((text) => el("th", { scope: "col", text })),
  );
  return el("table", { class: "games", id }, el("thead", {}, head), el("tbody", {}, ...games.map(gameRow)));
}

/** Draw the page of player ``name`` into ``root``. */
export async function renderPlayer(root: HTMLElement, name: string): Promise<void> {
  root.replaceChildren(el("p", { class: "muted", text: "Loading…" }));
  let page: PlayerPage;
  try {
    page = await accountApi.player(name);
  } catch (error) {
    root.replaceChildren(
      el("section", { class: "card" }, el("h1", { text: name }), el("p", { class: "error", id: "player-error", text: error instanceof Error ? error.message : String(error) })),
    );
    return;
  }
  try {
    titles = Object.fromEntries((await api.games()).map((g) => [g.name, g.title]));
  } catch {
    /* no game list: the games are shown by their names */
  }
  document.title = `${page.name} · gameshelf`;
  const since = parseTime(page.created);
  const ratings = page.ratings.length
    ? el(
        "table",
        { class: "ratings", id: "ratings" },
        el("thead", {}, el("tr", {}, ...["Game", "Players", "Rating", "μ ± σ", "Rated games"].map((text) => el("th", { scope: "col", text })))),
        el(
          "tbody",
          {},
          ...page.ratings.map((r) =>
            el(
              "tr",
              { "data-game": r.game, "data-players": String(r.players) },
              el("td", { text: title(r.game) }),
              el("td", { text: String(r.players) }),
              el("td", { class: "rating", text: r.rating.toFixed(1) }),
              el("td", { class: "muted", text: `${r.mu.toFixed(2)} ± ${r.sigma.toFixed(2)}` }),
              el("td", { text: String(r.games) }),
            ),
          ),
        ),
      )
    : el("p", { class: "muted", id: "ratings", text: "No rated games yet." });
  root.replaceChildren(
    el(
      "section",
      { class: "card player", "aria-labelledby": "player-name" },
      el("h1", { id: "player-name", text: page.name }),
      el("p", { class: "muted", text: since ? `Playing since ${since.toLocaleDateString()}` : "" }),
      el("h2", { text: "Ratings" }),
      el("p", { class: "muted", text: "openskill (Plackett-Luce) per game and player count; the rating shown is μ − 3σ." }),
      ratings,
      el("h2", { text: `Your turn (${page.your_turn.length})` }),
      page.your_turn.length ? gamesTable("your-turn", page.your_turn) : el("p", { class: "muted", id: "your-turn", text: "No game waits for a move." }),
      el("h2", { text: "Games" }),
      page.games.length ? gamesTable("player-games", page.games) : el("p", { class: "muted", id: "player-games", text: "No games yet." }),
    ),
  );
}
