// A match's chat (docs/server.md, "Chat"): players write, messages are drawn as text only
// (textContent, never innerHTML), and a player may mute other seats (kept per match in this
// browser and told to the server, which then stops sending their messages here).
import { el, revealInList, storedTokens, storeToken } from "./api";
import type { components } from "./generated/api";

type ChatMessage = components["schemas"]["ChatMessage"];
type RematchFrame = components["schemas"]["RematchFrame"];
type ClientFrame = components["schemas"]["ClientFrame"];

const MUTED_KEY = "gameshelf:muted:";

function storedMutes(matchId: string): number[] {
  try {
    const raw = JSON.parse(localStorage.getItem(MUTED_KEY + matchId) ?? "[]") as unknown;
    return Array.isArray(raw) ? raw.filter((s): s is number => Number.isInteger(s)) : [];
  } catch {
    return [];
  }
}

export interface ChatPanel {
  element: HTMLElement;
  /** Messages from the server (the history on arrival, then each new one). */
  receive: (messages: ChatMessage[]) => void;
  /** The seats this browser holds and every seat's label; called after each connect. */
  setSeats: (held: number[], labels: string[]) => void;
  /** Send the stored mutes again and forget the log (a new connection brings the history). */
  reconnected: () => void;
  /** In a replay the log stays readable but nothing can be written. */
  setReplay: (replay: boolean) => void;
}

/** The chat box: log, input and a mute switch per other seat. Spectators see it only when the
 *  server sends them the chat (an operator's choice); they never get an input. */
export function createChatPanel(matchId: string, send: (frame: ClientFrame) => void): ChatPanel {
  const log = el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-label": "Chat messages" });
  const input = el("input", { id: "chat-input", maxlength: "300", autocomplete: "off", placeholder: "Say something (players only)" });
  const button = el("button", { type: "submit", id: "chat-send", text: "Send" });
  const form = el("form", { class: "inline chat-form", id: "chat-form" }, input, button);
  const mutes = el("div", { class: "chat-mutes", id: "chat-mutes" });
  const element = el("section", { class: "card chat", id: "chat", hidden: "" }, el("h2", { text: "Chat" }), log, form, mutes);
  let muted = storedMutes(matchId);
  let labels: string[] = [];
  let mine: number[] = [];
  let replaying = false;

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text });
    input.value = "";
  });

  function label(seat: number): string {
    return labels[seat] ?? `Player ${seat + 1}`;
  }

  function renderMutes(): void {
    mutes.replaceChildren();
    labels.forEach((_label, seat) => {
      if (mine.includes(seat)) return;
      const box = el("input", { type: "checkbox", id: `mute-${seat}`, "data-seat": String(seat) });
      box.checked = muted.includes(seat);
      box.addEventListener("change", () => {
        muted = box.checked ? [...new Set([...muted, seat])] : muted.filter((s) => s !== seat);
        localStorage.setItem(MUTED_KEY + matchId, JSON.stringify(muted));
        send({ type: "mute", seats: muted });
      });
      mutes.append(el("label", { class: "check", for: `mute-${seat}` }, box, ` Mute ${label(seat)}`));
    });
  }

  return {
    element,
    receive(messages) {
      element.hidden = false;
      for (const message of messages) {
        const who = `${message.name ? `${message.name} (${label(message.seat)})` : label(message.seat)}: `;
        // Text only: whatever a player typed is shown as typed, never parsed as markup.
        const item = el("li", { "data-seat": String(message.seat) }, el("strong", { text: who }), el("span", { class: "text", text: message.text }));
        log.append(item);
      }
      while (log.childElementCount > 200) log.firstElementChild?.remove();
      revealInList(log, log.lastElementChild);
    },
    setSeats(held, seatLabels) {
      mine = held;
      labels = seatLabels;
      form.hidden = !held.length || replaying;
      if (held.length) element.hidden = false;
      renderMutes();
    },
    reconnected() {
      log.replaceChildren();
      if (muted.length) send({ type: "mute", seats: muted });
    },
    setReplay(replay) {
      replaying = replay;
      form.hidden = !mine.length || replay;
    },
  };
}

/**
 * The game-over dialog's rematch: a button that asks for this browser's seats, what the others
 * said, and once everyone agreed a link to the new match. The new match's seats are held by the
 * same tokens (the server says which seat each moved to), stored here under the new match id.
 */
export function createRematchControl(
  matchId: string,
  send: (frame: ClientFrame) => void,
): { element: HTMLElement; news: (frame: RematchFrame, held: number[]) => void; setHeld: (held: number[]) => void } {
  const button = el("button", { type: "button", id: "rematch-button", text: "Rematch (seats swapped)" });
  const status = el("p", { class: "muted", id: "rematch-status", "aria-live": "polite" });
  const element = el("div", { class: "rematch", id: "rematch" }, button, status);
  let held: number[] = [];
  let asked = false;
  button.addEventListener("click", () => {
    asked = true;
    button.disabled = true;
    for (const seat of held) send({ type: "rematch", seat });
  });
  return {
    element,
    setHeld(seats) {
      held = seats;
      button.hidden = !held.length;
    },
    news(frame, seats) {
      held = seats;
      if (frame.next) {
        const tokens = storedTokens(matchId);
        for (const seat of held) {
          const token = tokens[String(seat)];
          const moved = frame.seat_map[seat];
          if (token && moved !== undefined) storeToken(frame.next, moved, token);
        }
        button.hidden = true;
        status.replaceChildren(
          "Rematch agreed: ",
          el("a", { href: `/play/${frame.next}`, "data-link": "", class: "button primary", id: "rematch-go", text: "Play the rematch" }),
        );
        element.setAttribute("data-next", frame.next);
        return;
      }
      const mine = frame.offers.filter((s) => held.includes(s));
      const others = frame.offers.filter((s) => !held.includes(s));
      asked = asked || mine.length > 0;
      button.disabled = asked && mine.length > 0;
      // The other side asked: the same button accepts (one click), and the page moves on.
      button.textContent = others.length && !mine.length ? "Accept the rematch" : "Rematch (seats swapped)";
      status.textContent = others.length
        ? asked
          ? "Both asked: starting…"
          : "Your opponent asks for a rematch: accept it to start at once."
        : mine.length
          ? "Waiting for the other player to accept…"
          : "";
      element.setAttribute("data-offers", frame.offers.join(","));
    },
  };
}
