// HTTP lobby and token storage. Tokens never go in URLs: they live in localStorage,
// keyed by match id, so a reload or a second tab of this browser keeps its seats.

export interface GameOption {
  name: string;
  default: string;
  allowed: string;
  doc: string;
  choices: string[] | null;
}

export interface GameInfo {
  name: string;
  title: string;
  summary: string;
  options: GameOption[];
}

export interface SeatInfo {
  seat: number;
  kind: "human" | "bot";
  agent?: string | null;
  name?: string | null;
  taken: boolean;
}

export interface MatchSummary {
  id: string;
  game: string;
  status: "open" | "running" | "finished";
  version: number;
  plies: number;
  to_move: number;
  created: string;
  seats: SeatInfo[];
  result: number[] | null;
  result_text: string | null;
}

export interface RecordMove {
  player: number;
  move: string;
  action?: number;
}

export interface GameRecord {
  game: string;
  seed: number;
  players: string[];
  initial_position: string | null;
  moves: RecordMove[];
  [key: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    public code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
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
  agents: () => call<string[]>("GET", "/api/agents"),
  matches: (status: string, limit = 30) =>
    call<MatchSummary[]>("GET", `/api/matches?status=${encodeURIComponent(status)}&limit=${limit}`),
  match: (id: string) => call<MatchSummary>("GET", `/api/matches/${encodeURIComponent(id)}`),
  create: (game: string, seats: { kind: string; agent?: string }[], seed?: number) =>
    call<MatchSummary>("POST", "/api/matches", seed === undefined ? { game, seats } : { game, seats, seed }),
  join: (id: string, seat: number | null, name: string | null) =>
    call<{ match: string; seat: number; token: string }>(
      "POST",
      `/api/matches/${encodeURIComponent(id)}/join`,
      { seat, name },
    ),
  record: (id: string) => call<GameRecord>("GET", `/api/matches/${encodeURIComponent(id)}/record`),
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

/** The game's base name from a game string: "cage(players=3)" -> "cage". */
export function baseGame(game: string): string {
  const i = game.indexOf("(");
  return (i < 0 ? game : game.slice(0, i)).trim();
}

/** Option values from a game string (simple parser: commas outside quotes split). */
export function gameOptions(game: string): Record<string, string> {
  const i = game.indexOf("(");
  const out: Record<string, string> = {};
  if (i < 0) return out;
  const inner = game.slice(i + 1, game.lastIndexOf(")"));
  let depth = "";
  let cur = "";
  const parts: string[] = [];
  for (const ch of inner) {
    if (depth) {
      if (ch === depth) depth = "";
      cur += ch;
    } else if (ch === '"' || ch === "'") {
      depth = ch;
      cur += ch;
    } else if (ch === ",") {
      parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur);
  for (const part of parts) {
    const eq = part.indexOf("=");
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim().replace(/^["']|["']$/g, "");
  }
  return out;
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

export function navigate(path: string): void {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
