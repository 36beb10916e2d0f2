// Accounts in the page header: log in, register, log out, and the offer to attach the seats this
// browser took as a guest to the account. The session itself is an HTTP-only cookie the page
// never sees; the page only asks the server who it is.
import type { components } from "./generated/api";
import { ApiError, call, el, storedSeats } from "./api";

type Schemas = components["schemas"];
export type AccountInfo = Schemas["AccountInfo"];
export type ClaimResponse = Schemas["ClaimResponse"];
export type PlayerPage = Schemas["PlayerPage"];
export type MatchPlayers = Schemas["MatchPlayers"];

const CHANGED = "gameshelf:account";
/** The account a claim offer waits on: kept until it is answered, across pages and reloads. */
const CLAIM_OFFER_KEY = "gameshelf:claim-offer";

let current: string | null = null;

/** The logged-in account's name (null: a guest). */
export function accountName(): string | null {
  return current;
}

/** Call ``listener`` whenever the account changes (log-in, log-out); returns the unsubscriber. */
export function onAccountChange(listener: (name: string | null) => void): () => void {
  const handler = () => listener(current);
  window.addEventListener(CHANGED, handler);
  return () => window.removeEventListener(CHANGED, handler);
}

let changes = 0; // log-ins and log-outs so far: a slower "who am I" answer must not undo one

function setCurrent(name: string | null): void {
  changes++;
  if (name === current) return; // nothing to redraw (and nothing moves under the pointer)
  current = name;
  window.dispatchEvent(new Event(CHANGED));
}

const post = <T>(path: string, body: unknown): Promise<T> => call<T>("POST", path, body);
const get = <T>(path: string): Promise<T> => call<T>("GET", path);

export const accountApi = {
  me: () => get<AccountInfo>("/api/account"),
  register: (name: string, password: string) => post<AccountInfo>("/api/account/register", { name, password }),
  login: (name: string, password: string) => post<AccountInfo>("/api/account/login", { name, password }),
  logout: () => post<AccountInfo>("/api/account/logout", {}),
  claim: (seats: { match: string; token: string }[]) => post<ClaimResponse>("/api/account/claim", { seats }),
  player: (name: string) => get<PlayerPage>(`/api/players/${encodeURIComponent(name)}`),
  matchPlayers: (id: string) => get<MatchPlayers>(`/api/matches/${encodeURIComponent(id)}/players`),
};

/** Attach the guest seats to the account: all at once, or one by one when some are refused
 *  (a match gone, a seat another account holds). Returns how many were attached. */
export async function claimGuestSeats(seats: { match: string; token: string }[]): Promise<number> {
  try {
    return (await accountApi.claim(seats)).claimed.length;
  } catch {
    let count = 0;
    for (const seat of seats) {
      try {
        count += (await accountApi.claim([seat])).claimed.length;
      } catch {
        // this one cannot be claimed; the others still are
      }
    }
    return count;
  }
}

/** The "rated" checkbox of the create form: enabled only for a logged-in player. */
export function ratedField(): { field: HTMLElement; rated: () => boolean } {
  const box = el("input", { type: "checkbox", id: "rated", name: "rated" });
  const hint = el("span", { class: "muted", id: "rated-hint" });
  const field = el("label", { class: "rated", for: "rated" }, box, " Rated (accounts only) ", hint);
  const update = (name: string | null) => {
    box.disabled = name === null;
    if (name === null) box.checked = false;
    hint.textContent = name === null ? "— log in to play rated" : "";
  };
  update(current);
  const stop = onAccountChange((name) => {
    if (!field.isConnected) stop(); // the lobby was left: forget this form
    else update(name);
  });
  return { field, rated: () => box.checked && !box.disabled };
}

/** Put the account controls into the page header and learn who this browser is. */
export function mountAccount(header: HTMLElement): void {
  const box = el("div", { class: "account", id: "account" });
  header.append(box);
  const render = () => {
    box.replaceChildren();
    if (current !== null) {
      box.append(
        el("a", { href: `/players/${encodeURIComponent(current)}`, "data-link": "", id: "account-name", text: current }),
        " ",
        logoutButton(),
      );
    } else {
      const login = el("button", { type: "button", id: "login-open", text: "Log in" });
      const register = el("button", { type: "button", id: "register-open", text: "Register" });
      login.addEventListener("click", () => openForm("login"));
      register.addEventListener("click", () => openForm("register"));
      box.append(login, " ", register);
    }
  };
  onAccountChange(render);
  render();
  const asked = changes;
  void accountApi.me().then(
    (me) => {
      if (changes === asked) setCurrent(me.name ?? null);
      // An offer left unanswered (the page was left right after registering) comes back.
      if (current !== null && localStorage.getItem(CLAIM_OFFER_KEY) === current) offerClaim();
    },
    () => undefined, // the server is away: stay a guest until it answers
  );
}

function logoutButton(): HTMLElement {
  const button = el("button", { type: "button", id: "logout", text: "Log out" });
  button.addEventListener("click", async () => {
    button.setAttribute("disabled", "");
    try {
      await accountApi.logout();
    } finally {
      setCurrent(null);
    }
  });
  return button;
}

function openForm(mode: "login" | "register"): void {
  const title = mode === "login" ? "Log in" : "Register";
  const name = el("input", { id: "account-user", name: "username", autocomplete: "username", required: "" });
  const password = el("input", {
    id: "account-password",
    name: "password",
    type: "password",
    required: "",
    minlength: mode === "register" ? "8" : "1",
    autocomplete: mode === "login" ? "current-password" : "new-password",
  });
  const message = el("p", { class: "error", role: "alert", id: "account-error" });
  const submit = el("button", { type: "submit", class: "primary", id: "account-submit", text: title });
  const cancel = el("button", { type: "button", id: "account-cancel", text: "Cancel" });
  const form = el(
    "form",
    { class: "card account-form", id: "account-form", "aria-label": title },
    el("h2", { text: title }),
    el("label", { for: "account-user", text: "Name" }),
    name,
    el("label", { for: "account-password", text: mode === "register" ? "Password (8 characters or more)" : "Password" }),
    password,
    el("div", { class: "buttons" }, submit, " ", cancel),
    message,
  );
  document.getElementById("account-form")?.remove();
  (document.getElementById("main") ?? document.body).prepend(form);
  name.focus();
  cancel.addEventListener("click", () => form.remove());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "";
    submit.disabled = true;
    try {
      const call = mode === "login" ? accountApi.login : accountApi.register;
      const me = await call(name.value, password.value);
      form.remove();
      setCurrent(me.name ?? null);
      offerClaim();
    } catch (error) {
      message.textContent = error instanceof Error ? error.message : String(error);
      if (error instanceof ApiError) message.setAttribute("data-code", error.code);
      submit.disabled = false;
    }
  });
}

/** After a log-in: offer to attach this browser's guest seats to the account. The offer sits
 *  under the header, outside the page's content, so moving to another page keeps it; it is
 *  remembered until answered. */
function offerClaim(): void {
  const seats = storedSeats();
  if (!seats.length || current === null) return;
  localStorage.setItem(CLAIM_OFFER_KEY, current);
  const answered = () => localStorage.removeItem(CLAIM_OFFER_KEY);
  const matches = new Set(seats.map((s) => s.match)).size;
  const yes = el("button", { type: "button", class: "primary", id: "claim-yes", text: "Attach them" });
  const no = el("button", { type: "button", id: "claim-no", text: "Not now" });
  const note = el("p", { id: "claim-result", role: "status" });
  const prompt = el(
    "div",
    { class: "card claim", id: "claim-prompt", role: "dialog", "aria-label": "Claim guest games" },
    el("p", {
      text: `This browser played ${matches} game${matches === 1 ? "" : "s"} as a guest. Attach ${
        matches === 1 ? "it" : "them"
      } to ${current}, so ${matches === 1 ? "it shows" : "they show"} on your player page?`,
    }),
    el("div", { class: "buttons" }, yes, " ", no),
    note,
  );
  document.getElementById("claim-prompt")?.remove();
  const main = document.getElementById("main");
  if (main) main.before(prompt);
  else document.body.prepend(prompt);
  no.addEventListener("click", () => {
    answered();
    prompt.remove();
  });
  // A log-out leaves the offer for the account that was offered it.
  const stop = onAccountChange((name) => {
    if (name !== localStorage.getItem(CLAIM_OFFER_KEY)) {
      stop();
      prompt.remove();
    }
  });
  yes.addEventListener("click", async () => {
    yes.setAttribute("disabled", "");
    answered();
    const count = await claimGuestSeats(seats);
    note.textContent = `${count} seat${count === 1 ? "" : "s"} attached to ${current}.`;
    no.textContent = "Close";
  });
}
