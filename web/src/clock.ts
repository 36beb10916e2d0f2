// Clocks in the browser (docs/server.md, "Clocks"): the lobby's time-control choice, the
// ticking clocks of a match, and the correspondence waiting list with its tab-title count and
// optional notification. The server keeps the time; this only counts down from its last word.
import { call, el, parseTime, storedSeats } from "./api";
import type { components } from "./generated/api";

export type ClockInfo = components["schemas"]["ClockInfo"];
type WaitingGame = components["schemas"]["WaitingGame"];
type HeldSeat = components["schemas"]["HeldSeat"];

/** "4:05", "0:09.3" under ten seconds, "2 d 3 h" for days: time left in words. */
export function clockWords(ms: number): string {
  const left = Math.max(0, ms);
  if (left >= 86_400_000) return `${Math.floor(left / 86_400_000)} d ${Math.floor((left % 86_400_000) / 3_600_000)} h`;
  if (left >= 3_600_000) return `${Math.floor(left / 3_600_000)} h ${String(Math.floor((left % 3_600_000) / 60_000)).padStart(2, "0")} min`;
  const minutes = Math.floor(left / 60_000);
  const seconds = (left % 60_000) / 1000;
  if (left < 10_000) return `${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
  return `${minutes}:${String(Math.floor(seconds)).padStart(2, "0")}`;
}

type TimeControl = components["schemas"]["TimeControlInfo"];

/** "5 min + 3 s a move", "3 days a move": a time control in words (a clock's own fields too). */
export function timeControlWords(control: TimeControl | null | undefined): string {
  if (!control) return "no clock";
  if (control.mode === "correspondence") {
    const days = control.per_move_ms / 86_400_000;
    return `${days === 1 ? "1 day" : `${+days.toFixed(1)} days`} a move`;
  }
  const bank = control.initial_ms < 60_000 ? `${+(control.initial_ms / 1000).toFixed(1)} s` : `${+(control.initial_ms / 60_000).toFixed(1)} min`;
  const increment = +(control.increment_ms / 1000).toFixed(1);
  return `${bank}${increment ? ` + ${increment} s a move` : ""}`;
}

/** The lobby's "Clock" field: none, real-time (minutes + increment) or correspondence (days). */
export function createClockChooser(): { field: HTMLElement; extra: () => Record<string, unknown> } {
  const mode = el("select", { id: "clock-mode", name: "clock-mode" });
  mode.append(
    el("option", { value: "none", text: "No clock" }),
    el("option", { value: "realtime", text: "Real-time" }),
    el("option", { value: "correspondence", text: "Correspondence (days per move)" }),
  );
  const minutes = el("input", { id: "clock-minutes", type: "number", min: "0.1", max: "180", step: "any", value: "5" });
  const increment = el("input", { id: "clock-increment", type: "number", min: "0", max: "60", step: "any", value: "3" });
  const days = el("input", { id: "clock-days", type: "number", min: "1", max: "30", step: "1", value: "3" });
  const realtime = el(
    "div",
    { class: "inline clock-realtime" },
    el("label", { for: "clock-minutes", text: "Minutes each" }),
    minutes,
    el("label", { for: "clock-increment", text: "+ seconds a move" }),
    increment,
  );
  const correspondence = el("div", { class: "inline clock-days" }, el("label", { for: "clock-days", text: "Days per move" }), days);
  const show = () => {
    realtime.hidden = mode.value !== "realtime";
    correspondence.hidden = mode.value !== "correspondence";
  };
  mode.addEventListener("change", show);
  show();
  const field = el(
    "fieldset",
    { class: "clock-choice", id: "clock-choice" },
    el("legend", { text: "Clock" }),
    mode,
    realtime,
    correspondence,
    el("small", { class: "muted", text: "Only people's seats have clocks; running out of time loses." }),
  );
  const extra = (): Record<string, unknown> => {
    if (mode.value === "realtime") return { clock: { mode: "realtime", minutes: Number(minutes.value), increment_seconds: Number(increment.value) } };
    if (mode.value === "correspondence") return { clock: { mode: "correspondence", days: Number(days.value) } };
    return {};
  };
  return { field, extra };
}

/** The clocks of a match: one line per seat, the running one counting down every 100 ms. */
export function createClockPanel(label: (seat: number) => string): {
  element: HTMLElement;
  update: (clock: ClockInfo | null | undefined, held: number[]) => void;
  dispose: () => void;
} {
  const element = el("section", { class: "card clocks", id: "clocks", hidden: "" });
  let clock: ClockInfo | null = null;
  let received = 0;
  const rows: HTMLElement[] = [];

  function render(): void {
    if (!clock) return;
    const elapsed = performance.now() - received;
    clock.remaining_ms.forEach((ms, seat) => {
      const row = rows[seat];
      const time = row?.querySelector(".time");
      if (!row || !time) return;
      if (ms === null) {
        time.textContent = clock!.mode === "realtime" ? "bot" : "—";
        return;
      }
      const running = clock!.running === seat;
      const left = running ? ms - elapsed : ms;
      time.textContent = clockWords(left);
      row.classList.toggle("running", running);
      row.classList.toggle("low", running && left < 10_000 && clock!.mode === "realtime");
      row.classList.toggle("flagged", clock!.flagged === seat);
      row.setAttribute("data-ms", String(Math.max(0, Math.round(left))));
    });
  }

  const timer = window.setInterval(render, 100);
  return {
    element,
    update(next, held) {
      clock = next ?? null;
      received = performance.now();
      element.hidden = !clock;
      if (!clock) return;
      element.setAttribute("data-mode", clock.mode);
      element.setAttribute("data-running", clock.running === null ? "" : String(clock.running));
      element.setAttribute("data-flagged", clock.flagged === null ? "" : String(clock.flagged));
      if (rows.length !== clock.remaining_ms.length) {
        rows.length = 0;
        element.replaceChildren(el("h3", { text: clock.mode === "realtime" ? "Clocks" : "Time for this move" }));
        clock.remaining_ms.forEach((_ms, seat) => {
          const row = el("div", { class: "clock", "data-seat": String(seat) }, el("span", { class: "who" }), el("span", { class: "time" }));
          rows.push(row);
          element.append(row);
        });
      }
      rows.forEach((row, seat) => {
        const who = row.querySelector(".who");
        if (who) who.textContent = `${label(seat)}${held.includes(seat) ? " (you)" : ""}${clock!.flagged === seat ? " — out of time" : ""}`;
      });
      render();
    },
    dispose() {
      window.clearInterval(timer);
    },
  };
}

/** Every seat this browser holds, from the tokens kept in localStorage. */
export function heldSeats(): HeldSeat[] {
  return storedSeats().slice(-200); // the server reads at most 200
}

async function fetchWaiting(): Promise<WaitingGame[]> {
  return call<WaitingGame[]>("POST", "/api/waiting", { seats: heldSeats() });
}

const NOTIFIED_KEY = "gameshelf:notified";

/**
 * The lobby's "Your move" list: running games waiting for this browser's seats (or account),
 * polled every 20 s; the tab title shows the count ("(2) gameshelf") and, if the player allowed
 * it with the button (never asked on load), a notification tells of a game newly waiting.
 */
export function createWaitingList(baseTitle: string): { element: HTMLElement; refresh: () => Promise<void>; dispose: () => void } {
  // A compact, scrolling list: however many games wait, the match lists stay in view.
  const list = el("ul", { class: "matches waiting-list", id: "waiting-list" });
  const notify = el("button", { type: "button", id: "notify-button", text: "Notify me when it is my move" });
  const notifyNote = el("small", { class: "muted", id: "notify-note", role: "status" });
  const element = el("section", { class: "card waiting", id: "waiting", "aria-labelledby": "waiting-title" }, el("h2", { id: "waiting-title", text: "Your move" }), list);
  if ("Notification" in window && Notification.permission !== "granted") element.append(el("div", { class: "inline notify" }, notify, notifyNote));
  notify.addEventListener("click", () => {
    void Notification.requestPermission().then((answer) => {
      notifyNote.setAttribute("data-permission", answer);
      if (answer === "granted") {
        notify.remove();
        notifyNote.textContent = "You will be told when a game waits for you (while this tab is open).";
      } else {
        notifyNote.textContent =
          answer === "denied"
            ? "The browser refused notifications for this site: allow them in the site settings to be told."
            : "No answer from the browser: notifications stay off.";
      }
    });
  });
  let known = new Set<string>(JSON.parse(sessionStorage.getItem(NOTIFIED_KEY) ?? "[]") as string[]);

  async function refresh(): Promise<void> {
    let games: WaitingGame[];
    try {
      games = await fetchWaiting();
    } catch {
      return;
    }
    list.replaceChildren();
    for (const game of games) {
      const deadline = parseTime(game.deadline);
      const left = deadline ? ` · ${clockWords(deadline.getTime() - Date.now())} left` : "";
      list.append(
        el(
          "li",
          { "data-match": game.match },
          el("span", { class: "what" }, el("strong", { text: game.game }), game.opponents?.length ? ` vs ${game.opponents.join(", ")}` : "", ` · move ${game.decisions + 1}${left}`),
          el("span", { class: "actions" }, el("a", { href: `/play/${game.match}`, "data-link": "", class: "button", text: "Play" })),
        ),
      );
    }
    if (!games.length) list.append(el("li", { class: "muted", text: "No game is waiting for you." }));
    element.setAttribute("data-count", String(games.length));
    element.hidden = !games.length && !heldSeats().length; // nothing to show a guest yet
    document.title = games.length ? `(${games.length}) ${baseTitle}` : baseTitle;
    const fresh = games.filter((g) => !known.has(`${g.match}:${g.plies}`));
    if (fresh.length && "Notification" in window && Notification.permission === "granted" && document.hidden) {
      new Notification("gameshelf: your move", { body: fresh.map((g) => g.game).join(", "), tag: "gameshelf-waiting" });
    }
    known = new Set(games.map((g) => `${g.match}:${g.plies}`));
    sessionStorage.setItem(NOTIFIED_KEY, JSON.stringify([...known]));
  }

  // The lobby has no clean-up hook: the poll stops once the list has left the page.
  const timer = window.setInterval(() => {
    if (element.isConnected) void refresh();
    else window.clearInterval(timer);
  }, 20_000);
  return {
    element,
    refresh,
    dispose() {
      window.clearInterval(timer);
    },
  };
}
