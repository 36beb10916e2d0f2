// HTTP lobby and token storage. Tokens never go in URLs: they live in localStorage,
// keyed by match id, so a reload or a second tab of this browser keeps its seats.
import type { components } from "./generated/api";

type Schemas = components["schemas"];

// Every shape below is generated from the server's pydantic models (scripts/gen-contract.sh).
export type GameOption = Schemas["OptionInfo"];
export type GameInfo = Schemas["GameInfo"];
export type SeatInfo = Schemas["SeatSummary"];
export type MatchSummary = Schemas["MatchSummary"];
/** An item of GET /api/matches: the summary's facts, some of them left out of lists. */
export type MatchListItem = Schemas["MatchListItem"] & Partial<Pick<MatchSummary, "seats" | "plies" | "to_move" | "name">>;
export type RecordMove = Schemas["RecordMove"];
export type GameRecord = Schemas["MatchRecord"];

/** One ply of a replay: who moved, the move (null at the start, and for hidden-information games
 *  until the end) and the views after it ("public" and each seat shown), from the engine. */
export type ReplayFrame = components["schemas"]["ReplayFrame"];
export type Replay = components["schemas"]["Replay"];
/** Game data a match's views refer to (AXIA: its card set), as the match was created with. */
export type MatchData = components["schemas"]["MatchData"];

/** A bot as the lobby offers it: name, strength rank (higher plays better), one line. */
export type AgentInfo = Schemas["AgentInfo"];

/** Accept both the list-of-objects answer and an older server's list of names. */
export function normaliseAgents(raw: unknown): AgentInfo[] {
  if (!Array.isArray(raw)) return [];
  const out: AgentInfo[] = raw.map((item, i) =>
    typeof item === "string"
      ? { name: item, strength: i, summary: "", level: true }
      : {
          name: String((item as AgentInfo).name),
          strength: Number((item as AgentInfo).strength ?? i),
          summary: String((item as AgentInfo).summary ?? ""),
          // an older server does not say which are the named levels: offer every bot
          level: (item as Partial<AgentInfo>).level ?? true,
        },
  );
  return out.sort((a, b) => a.strength - b.strength || a.name.localeCompare(b.name));
}

/**
 * A server timestamp as a Date, parsed as given: the server's ISO-8601 times carry their offset
 * ("+00:00"), so nothing is appended. Returns null when it cannot be read (never "Invalid Date").
 */
export function parseTime(text: string | null | undefined): Date | null {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "just now", "5 min", "3 h", "2 days": how long ago, in words. */
export function agoWords(date: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, (now.getTime() - date.getTime()) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400 * 2) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} days`;
}

export class ApiError extends Error {
  constructor(
    public code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One JSON request to the server; a refusal becomes an ``ApiError`` with its stable code. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const response = await fetch(path, init);
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(error?.code ?? String(response.status), error?.message ?? response.statusText);
  }
  return data as T;
}

export const api = {
  games: () => call<GameInfo[]>("GET", "/api/games"),
  /** The bots fit for a game string (every bot without one), weakest first. */
  agents: async (game?: string) =>
    normaliseAgents(await call<unknown>("GET", game ? `/api/agents?game=${encodeURIComponent(game)}` : "/api/agents")),
  /** Matches of one status; ``idleMax`` (seconds) leaves out open/running ones idle longer. */
  matches: (status: string, limit = 30, idleMax: number | null = null) =>
    call<MatchListItem[]>(
      "GET",
      `/api/matches?status=${encodeURIComponent(status)}&limit=${limit}${idleMax === null ? "" : `&idle_max=${idleMax}`}`,
    ),
  match: (id: string) => call<MatchSummary>("GET", `/api/matches/${encodeURIComponent(id)}`),
  /** ``extra``: more fields of the create request (``rated``, a clock). */
  create: (game: string, seats: { kind: string; agent?: string }[], seed?: number, extra: Record<string, unknown> = {}) =>
    call<MatchSummary>("POST", "/api/matches", { game, seats, ...(seed === undefined ? {} : { seed }), ...extra }),
  join: (id: string, seat: number | null, name: string | null) =>
    call<{ match: string; seat: number; token: string }>(
      "POST",
      `/api/matches/${encodeURIComponent(id)}/join`,
      { seat, name },
    ),
  record: (id: string) => call<GameRecord>("GET", `/api/matches/${encodeURIComponent(id)}/record`),
  /** Every ply's views: public, the seats the tokens prove, and every seat with ``allSeats``
   *  (only once the game is over). */
  replay: (id: string, tokens: string[], allSeats: boolean) =>
    tokens.length
      ? call<Replay>("POST", `/api/matches/${encodeURIComponent(id)}/replay`, { tokens, all_seats: allSeats })
      : call<Replay>("GET", `/api/matches/${encodeURIComponent(id)}/replay${allSeats ? "?all_seats=true" : ""}`),
  data: (id: string) => call<MatchData>("GET", `/api/matches/${encodeURIComponent(id)}/data`),
};

const KEY = "gameshelf:tokens:";

export function storedTokens(matchId: string): Record<string, string> {
  try {
    const raw = localStorage.getItem(KEY + matchId);
    return raw ? (JSON.parse(raw) as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Every seat token this browser keeps (from games joined here), as ``{match, token}`` pairs. */
export function storedSeats(): { match: string; token: string }[] {
  const seats: { match: string; token: string }[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(KEY)) continue;
    const match = key.slice(KEY.length);
    for (const token of Object.values(storedTokens(match))) seats.push({ match, token });
  }
  return seats;
}

export function storeToken(matchId: string, seat: number, token: string): void {
  const tokens = storedTokens(matchId);
  tokens[String(seat)] = token;
  localStorage.setItem(KEY + matchId, JSON.stringify(tokens));
}

export function playerName(): string {
  return localStorage.getItem("gameshelf:name") ?? "";
}

export function setPlayerName(name: string): void {
  localStorage.setItem("gameshelf:name", name);
}

/**
 * Which of the server's games (``GET /api/games`` names) a game string is for. The game string
 * itself is opaque: its options are the server's business; only the registered name it starts
 * with picks the board. A summary's own ``name`` wins when the server sends one.
 */
export function gameName(game: string, names: string[], given?: string | null): string {
  if (given) return given;
  let best = "";
  for (const name of names) if ((game === name || game.startsWith(`${name}(`)) && name.length > best.length) best = name;
  return best;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/**
 * Scroll ``list`` (a scrolling box: the move list, the chat log) just enough to show ``item``,
 * and nothing else: ``scrollIntoView`` would also scroll the page, so a click on "Next" could
 * move the button from under the pointer (and a chat line arriving would jump the page).
 */
export function revealInList(list: HTMLElement, item: Element | null): void {
  if (!item) return;
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

export function navigate(path: string): void {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
