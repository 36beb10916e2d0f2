// Client-side router: "/" is the lobby, "/play/{id}" a match (live, watch or replay).
import "./style.css";
import { renderLobby } from "./lobby";
import { renderMatch } from "./match";
import { mountAccount } from "./account";
import { renderPlayer } from "./player";
import { el } from "./api";

const root = document.getElementById("main") as HTMLElement;
let cleanup: (() => void) | null = null;
let generation = 0;
mountAccount(document.querySelector("header.top") as HTMLElement);

async function route(): Promise<void> {
  const mine = ++generation;
  cleanup?.();
  cleanup = null;
  const match = /^\/play\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  if (match) {
    const stop = await renderMatch(root, match[1], new URLSearchParams(location.search));
    if (mine !== generation) stop();
    else cleanup = stop;
  } else if (/^\/players\/[^/]+\/?$/.test(location.pathname)) {
    await renderPlayer(root, decodeURIComponent(location.pathname.split("/")[2]));
  } else if (location.pathname === "/" || location.pathname === "/index.html") {
    await renderLobby(root);
  } else {
    renderNotFound();
  }
}

/** A page the table does not have (the server answered 404 with this page): say so, with a way back. */
function renderNotFound(): void {
  document.title = "gameshelf — page not found";
  root.replaceChildren(
    el(
      "section",
      { class: "card not-found", id: "not-found" },
      el("h1", { text: "Page not found" }),
      el("p", { text: `There is no page at ${location.pathname}. Matches live under /play/…, players under /players/….` }),
      el("a", { href: "/", "data-link": "", class: "button primary", text: "Back to the lobby" }),
    ),
  );
}

// Internal links (marked data-link) change the route without reloading the page.
document.addEventListener("click", (event) => {
  const target = (event.target as HTMLElement).closest("a[data-link]") as HTMLAnchorElement | null;
  if (!target || event.metaKey || event.ctrlKey || event.shiftKey || target.target) return;
  event.preventDefault();
  history.pushState(null, "", target.getAttribute("href") ?? "/");
  void route();
});
window.addEventListener("popstate", () => void route());
void route();
