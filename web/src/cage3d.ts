// Rubik's Cage in 3D: frame, axle, cubies with colour-blind-safe symbols, each column's number
// over it and the front marked, click a column to drop, twist/flip controls with animation, the
// forbidden reverse greyed out, the winning line outlined.
// It draws the engine's view (live: the state message; replay: the server's frames) and knows
// no rules: no drops, twists or gravity are worked out here. Moves are chosen from the server's
// legal moves by their parts (colour and column, layer and direction); notation is never read.
import * as THREE from "three";
import { el } from "./api";
import type { Board, BoardContext, CageMove, CageView } from "./types";

type Drop = Extract<CageMove, { kind: "drop" }>;
import { createStage, disposeGroup, LABEL, onClick, textSprite } from "./three-util";

export const COLOURS: Record<string, { hex: number; css: string; symbol: string; name: string }> = {
  W: { hex: 0xf7f7f2, css: "#f7f7f2", symbol: "●", name: "white" },
  Y: { hex: 0xf2c318, css: "#f2c318", symbol: "▲", name: "yellow" },
  R: { hex: 0xc8202f, css: "#c8202f", symbol: "■", name: "red" },
  O: { hex: 0xf07f12, css: "#f07f12", symbol: "◆", name: "orange" },
  B: { hex: 0x1f5fc4, css: "#1f5fc4", symbol: "★", name: "blue" },
  G: { hex: 0x1c9a4a, css: "#1c9a4a", symbol: "✚", name: "green" },
};

// Ring positions 0..7 counter-clockwise seen from above, 0 = front-left; (x, depth) with front = +1.
const RING: [number, number][] = [
  [-1, 1],
  [0, 1],
  [1, 1],
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, -1],
  [-1, 0],
];
// Where each column sits in the 3x3 top-view grid of DOM buttons (row, col), back row first.
const GRID_CELL: [number, number][] = [
  [3, 1],
  [3, 2],
  [3, 3],
  [2, 3],
  [1, 3],
  [1, 2],
  [1, 1],
  [2, 1],
];
const SPACING = 1.04;

const textures = new Map<string, THREE.CanvasTexture>();
function cubieTexture(letter: string): THREE.CanvasTexture {
  const cached = textures.get(letter);
  if (cached) return cached;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 128;
  const g = canvas.getContext("2d")!;
  const colour = COLOURS[letter] ?? { css: "#888", symbol: "?" };
  g.fillStyle = colour.css;
  g.fillRect(0, 0, 128, 128);
  g.strokeStyle = "rgba(0,0,0,0.55)";
  g.lineWidth = 8;
  g.strokeRect(4, 4, 120, 120);
  g.fillStyle = letter === "W" || letter === "Y" ? "#222" : "#fff";
  g.font = "bold 64px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(colour.symbol, 64, 56);
  g.font = "bold 26px sans-serif";
  g.fillText(letter, 64, 106);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.userData.letter = letter;
  textures.set(letter, texture);
  return texture;
}

function cellPosition(r: number, z: number): THREE.Vector3 {
  const [x, d] = RING[r];
  return new THREE.Vector3(x * SPACING, (z - 1) * SPACING, d * SPACING);
}

/** A move in a player's words, from its parts. */
function cageWords(move: CageMove): string {
  if (move.kind === "drop") return `Drop ${COLOURS[move.colour]?.name ?? move.colour} into column ${move.column}`;
  if (move.kind === "twist") return `Turn layer ${move.layer} ${move.direction === "+" ? "counter-clockwise" : "clockwise"}`;
  return "Flip the cage";
}

/** The group a move is listed under: each colour's drops, the twists, the flip. */
function cageGroup(move: CageMove): string {
  if (move.kind === "drop") return `Drop ${move.colour}`;
  return move.kind === "twist" ? "Twist a layer" : "Flip the cage";
}

/** The twist/flip controls' order: the top layer first, the flip last. */
function turnRank(move: CageMove): number {
  return move.kind === "twist" ? move.layer : -1;
}

export function createCageBoard(): Board<CageView, CageMove> {
  const stage = createStage("Rubik's Cage in 3D", new THREE.Vector3(4.4, 4.3, 7.2), new THREE.Vector3(0, -0.3, 0));
  const { scene } = stage;
  const root = new THREE.Group();
  scene.add(root);
  const cubies = new THREE.Group();
  root.add(cubies);

  // Frame: the outer edges and the grid lines of the side faces; the axle through the middle.
  const frameMaterial = new THREE.MeshStandardMaterial({ color: 0x2b2b2b, metalness: 0.3, roughness: 0.6 });
  const half = 1.5 * SPACING;
  const bar = (from: THREE.Vector3, to: THREE.Vector3, radius = 0.035) => {
    const length = from.distanceTo(to);
    const mesh = new THREE.Mesh(new THREE.CylinderGeometry(radius, radius, length, 8), frameMaterial);
    mesh.position.copy(from).add(to).multiplyScalar(0.5);
    mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), to.clone().sub(from).normalize());
    root.add(mesh);
  };
  for (const sx of [-1, 1]) for (const sz of [-1, 1]) bar(new THREE.Vector3(sx * half, -half, sz * half), new THREE.Vector3(sx * half, half, sz * half), 0.05);
  for (const y of [-half, -half / 3, half / 3, half]) {
    const r = y === -half || y === half ? 0.05 : 0.02;
    bar(new THREE.Vector3(-half, y, half), new THREE.Vector3(half, y, half), r);
    bar(new THREE.Vector3(-half, y, -half), new THREE.Vector3(half, y, -half), r);
    bar(new THREE.Vector3(-half, y, -half), new THREE.Vector3(-half, y, half), r);
    bar(new THREE.Vector3(half, y, -half), new THREE.Vector3(half, y, half), r);
  }
  const axle = new THREE.Mesh(new THREE.CylinderGeometry(0.16, 0.16, 2 * half + 0.9, 20), new THREE.MeshStandardMaterial({ color: 0x777777, metalness: 0.6, roughness: 0.35 }));
  root.add(axle);
  const axleCore = new THREE.Mesh(new THREE.BoxGeometry(0.9, 2.9 * SPACING, 0.9), new THREE.MeshStandardMaterial({ color: 0x3a3a3a, transparent: true, opacity: 0.35 }));
  root.add(axleCore);
  const base = new THREE.Mesh(new THREE.CylinderGeometry(2.8, 2.8, 0.08, 48), new THREE.MeshStandardMaterial({ color: 0xd8cdb8 }));
  base.position.y = -half - 0.5;
  scene.add(base);

  // Each column, as the player sees it: a faint tile over its top and its number above that
  // (the game's own ring numbering, r = 0..7), both clickable; and an invisible volume through
  // the cage, lit on hover, that takes a click only where nothing drawn was hit.
  const volumes: THREE.Mesh[] = [];
  const tiles: THREE.Mesh[] = [];
  const labels: THREE.Sprite[] = [];
  const volumeMaterial = new THREE.MeshBasicMaterial({ color: 0x2a9d8f, transparent: true, opacity: 0, depthWrite: false });
  const tileMaterial = new THREE.MeshBasicMaterial({ color: 0x2a9d8f, transparent: true, opacity: 0.14, depthWrite: false, side: THREE.DoubleSide });
  const hot: typeof LABEL = { background: "rgba(31, 111, 92, 0.95)", ink: "#ffffff", height: 0.36 };
  for (let r = 0; r < 8; r++) {
    const p = cellPosition(r, 1);
    const volume = new THREE.Mesh(new THREE.BoxGeometry(SPACING, 3 * SPACING, SPACING), volumeMaterial.clone());
    volume.position.set(p.x, 0, p.z);
    volume.userData.column = r;
    const tile = new THREE.Mesh(new THREE.PlaneGeometry(0.9 * SPACING, 0.9 * SPACING), tileMaterial.clone());
    tile.rotation.x = -Math.PI / 2;
    tile.position.set(p.x, half + 0.01, p.z);
    tile.userData.column = r;
    // Small and low, so each number sits over its own tile (taller ones hid each other).
    const label = textSprite(String(r), { ...LABEL, height: 0.36 });
    label.userData = { column: r, plain: label.material.map, hot: textSprite(String(r), hot).material.map };
    label.position.set(p.x, half + 0.24, p.z);
    // Drawn over the frame and the axle's end, so every number shows (and is picked first).
    label.material.depthTest = false;
    label.renderOrder = 1;
    root.add(volume, tile, label);
    volumes.push(volume);
    tiles.push(tile);
    labels.push(label);
  }
  // Which side is the front (column 1's side, as the notation and the grid below say).
  const front = textSprite("front", { ...LABEL, height: 0.36 });
  front.position.set(0, -half - 0.25, half + 1.1); // on the base's rim, clear of the cubies
  front.material.depthTest = false; // seen from behind, it shows through the cage
  front.renderOrder = 1;
  root.add(front);

  // DOM controls: colour palette, top-view column buttons (the 2D picture), twist/flip buttons.
  const palette = el("div", { class: "palette", role: "group", "aria-label": "Colour to drop" });
  const grid = el("div", { class: "cage-grid", role: "group", "aria-label": "Columns seen from above: click to drop" });
  const turns = el("div", { class: "cage-turns", role: "group", "aria-label": "Twist and flip" });
  const info = el("p", { class: "cage-info muted", id: "cage-info" });
  const seatColours = el("p", { class: "cage-seats", id: "cage-seats", "aria-label": "Colours of each player" });
  const hoverCaption = el("span", { class: "hover-column", id: "cage-hover", hidden: "" });
  stage.canvasBox.append(hoverCaption);
  const element = el("div", { class: "cage-board" }, stage.canvasBox, info, seatColours, el("div", { class: "cage-controls" }, palette, grid, turns));

  let context: BoardContext<CageView, CageMove> | null = null;
  let selected: string | null = null;
  let shown: CageView | null = null;

  const columnButtons: HTMLButtonElement[] = [];
  for (let r = 0; r < 8; r++) {
    const [row, col] = GRID_CELL[r];
    const button = el("button", { type: "button", class: "column", "data-column": String(r) });
    button.style.gridRow = String(row);
    button.style.gridColumn = String(col);
    button.addEventListener("click", () => dropInto(r));
    button.addEventListener("focus", () => highlight(r));
    button.addEventListener("blur", () => highlight(null));
    grid.append(button);
    columnButtons.push(button);
  }
  const hub = el("div", { class: "axle-cell", "aria-hidden": "true", text: "axle" });
  hub.style.gridRow = "2";
  hub.style.gridColumn = "2";
  grid.append(hub);
  grid.append(el("span", { class: "front-label", text: "front" }));

  /** The legal drops, all of them or those into column ``r``. */
  function dropMoves(r: number | null = null): Drop[] {
    return (context?.legal ?? []).filter((m): m is Drop => m.kind === "drop" && (r === null || m.column === r));
  }

  function dropInto(r: number): void {
    if (!context) return;
    const moves = dropMoves(r);
    if (!moves.length) return;
    const choice = moves.find((m) => m.colour === selected) ?? (moves.length === 1 ? moves[0] : null);
    if (choice) context.play(choice.move);
    else info.textContent = "Choose a colour first.";
  }

  /** The column of a suggested drop (analysis best move or hint), else null. */
  function suggestedColumn(): number | null {
    const move = context?.suggestion;
    return move?.kind === "drop" ? move.column : null;
  }

  function highlight(r: number | null): void {
    const suggested = suggestedColumn();
    volumes.forEach((mesh, i) => {
      const material = mesh.material as THREE.MeshBasicMaterial;
      const open = i === r && context !== null && dropMoves(i).length > 0;
      // A suggested drop glows gold; the hovered column teal, its number lit.
      material.color.setHex(i === suggested ? 0xe9a400 : 0x2a9d8f);
      material.opacity = i === suggested ? 0.35 : open ? 0.22 : 0;
      (tiles[i].material as THREE.MeshBasicMaterial).opacity = open ? 0.45 : 0.14;
      const data = labels[i].userData as { plain: THREE.Texture; hot: THREE.Texture };
      labels[i].material.map = open || i === suggested ? data.hot : data.plain;
    });
    stage.requestRender();
  }

  /** The column under the pointer as drawn: a number (drawn over all else), else the nearest
   *  cubie or top tile hit (the axle blocks), else the nearest column volume (an empty
   *  column's space). */
  function columnAt(event: PointerEvent): number | null {
    const number = stage.pick(event, labels);
    if (number) return number.object.userData.column as number;
    const hit = stage.pick(event, [...cubies.children, ...tiles, axle]);
    if (hit) {
      // A cubie's rim is a child of the cubie: climb to the object that knows its column.
      let object: THREE.Object3D | null = hit.object;
      while (object && object.userData.r === undefined && object.userData.column === undefined) object = object.parent;
      return object ? ((object.userData.r ?? object.userData.column) as number) : null;
    }
    const inside = stage.pick(event, volumes);
    return inside ? (inside.object.userData.column as number) : null;
  }

  /** The hovered column's number beside the pointer, with what a click there would do. */
  function caption(r: number | null, event: PointerEvent | null): void {
    const can = r !== null && dropMoves(r).length > 0;
    hoverCaption.hidden = r === null || !event;
    if (r === null || !event || !stage.renderer) return;
    const rect = stage.renderer.domElement.getBoundingClientRect();
    hoverCaption.textContent = `Column ${r}${can ? ` — click to drop ${selected ?? ""}` : ""}`;
    hoverCaption.dataset.column = String(r);
    hoverCaption.style.left = `${event.clientX - rect.left + 14}px`;
    hoverCaption.style.top = `${event.clientY - rect.top + 10}px`;
  }

  /** Publish where each column shows on the canvas (for tests and tools): its number's place,
   *  its top tile's centre and that tile's distance from the camera. */
  function publishColumns(): void {
    if (!stage.renderer) return;
    root.updateMatrixWorld(true);
    const points = labels.map((label, r) => {
      const tile = tiles[r].getWorldPosition(new THREE.Vector3());
      return {
        ...stage.project(label.getWorldPosition(new THREE.Vector3())),
        top: stage.project(tile),
        distance: Math.round(tile.distanceTo(stage.camera.position) * 100) / 100,
      };
    });
    stage.renderer.domElement.dataset.columns = JSON.stringify(points);
  }
  stage.controls?.addEventListener("change", publishColumns);
  new ResizeObserver(publishColumns).observe(stage.canvasBox);

  if (stage.renderer) {
    const canvas = stage.renderer.domElement;
    onClick(canvas, (event) => {
      const r = columnAt(event);
      if (r !== null) dropInto(r);
    });
    canvas.addEventListener("pointermove", (event) => {
      const r = columnAt(event);
      highlight(r);
      caption(r, event);
      canvas.style.cursor = r !== null && dropMoves(r).length ? "pointer" : "default";
    });
    canvas.addEventListener("pointerleave", () => {
      highlight(null);
      caption(null, null);
    });
  }

  const boxGeometry = new THREE.BoxGeometry(0.92, 0.92, 0.92);
  const outlineGeometry = new THREE.BoxGeometry(1.1, 1.1, 1.1);
  const outlineMaterial = new THREE.MeshBasicMaterial({ color: 0xd6005c, side: THREE.BackSide });
  // Shared by every cubie: kept when the cubies are rebuilt.
  for (const geometry of [boxGeometry, outlineGeometry]) geometry.userData.shared = true;
  function buildCubies(view: CageView): void {
    disposeGroup(cubies);
    const winning = new Set(view.winning_cells.map(([r, z]) => `${r},${z}`));
    view.columns.forEach((column, r) => {
      column.forEach((letter, z) => {
        const material = new THREE.MeshStandardMaterial({ map: cubieTexture(letter), roughness: 0.5 });
        const mesh = new THREE.Mesh(boxGeometry, material);
        mesh.position.copy(cellPosition(r, z));
        mesh.userData = { r, z, letter };
        if (winning.has(`${r},${z}`)) {
          material.emissive = new THREE.Color(0xffe066);
          material.emissiveIntensity = 0.35;
          // A thick rim: a slightly larger box drawn from inside (WebGL lines are one pixel wide).
          const outline = new THREE.Mesh(outlineGeometry, outlineMaterial);
          outline.userData.outline = true;
          mesh.add(outline);
          mesh.scale.setScalar(1.06);
        }
        cubies.add(mesh);
      });
    });
    stage.requestRender();
    publishDrawn();
  }

  /**
   * What the board shows, read back from the scene and the controls (not from the view): each
   * column's cubies bottom to top (from the meshes' places and textures), the lit winning cells,
   * each seat's colours and the cubies left. On `data-drawn` (tests and tools compare it with
   * the engine's view).
   */
  function publishDrawn(): void {
    const columns: string[][] = Array.from({ length: 8 }, () => []);
    const heights: number[][] = Array.from({ length: 8 }, () => []);
    const winning: [number, number][] = [];
    for (const child of cubies.children) {
      const mesh = child as THREE.Mesh;
      const letter = ((mesh.material as THREE.MeshStandardMaterial).map?.userData.letter as string | undefined) ?? "?";
      const r = RING.findIndex(([x, d]) => Math.abs(x * SPACING - mesh.position.x) < 0.01 && Math.abs(d * SPACING - mesh.position.z) < 0.01);
      const z = Math.round(mesh.position.y / SPACING) + 1;
      if (r < 0) continue;
      columns[r].push(letter);
      heights[r].push(z);
      if (mesh.children.some((c) => c.userData.outline)) winning.push([r, z]);
    }
    const ordered = columns.map((column, r) => column.map((letter, i) => [heights[r][i], letter] as [number, string]).sort((p, q) => p[0] - q[0]));
    // A hole under a cubie would show as a gap in its heights: keep the heights to see it.
    const colours = [...seatColours.querySelectorAll<HTMLElement>("[data-seat]")].map((seat) =>
      [...seat.querySelectorAll<HTMLElement>("[data-colour]")].map((chip) => chip.dataset.colour ?? "?"),
    );
    const left: Record<string, number> = {};
    for (const swatch of palette.querySelectorAll<HTMLElement>("[data-left]")) left[swatch.dataset.colour ?? "?"] = Number(swatch.dataset.left);
    element.dataset.drawn = JSON.stringify({
      columns: ordered.map((column) => column.map(([, letter]) => letter)),
      heights: ordered.map((column) => column.map(([z]) => z)),
      winning_cells: winning.sort((p, q) => p[0] - q[0] || p[1] - q[1]),
      colours,
      left,
    });
  }

  let generation = 0;
  function animateChange(previous: CageView | null, view: CageView): void {
    // A newer state cancels any animation still running (its frames stop and build nothing).
    const mine = ++generation;
    cubies.rotation.set(0, 0, 0);
    for (const child of [...root.children]) if (child.userData.pivot) {
      root.remove(child);
      disposeGroup(child);
    }
    buildCubies(previous && view.last_move && view.last_move !== previous.last_move ? previous : view);
    const move = view.last;
    if (!previous || !move || !stage.renderer || view.last_move === previous.last_move) return buildCubies(view);
    const start = performance.now();
    const duration = 380;
    const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2);
    if (move.kind === "twist") {
      const z = move.layer;
      const pivot = new THREE.Group();
      pivot.userData.pivot = true;
      root.add(pivot);
      for (const child of [...cubies.children]) if ((child.userData as { z: number }).z === z) pivot.attach(child);
      const angle = (move.direction === "+" ? 1 : -1) * (Math.PI / 2);
      stage.animate((now) => {
        if (mine !== generation) return false;
        const t = Math.min(1, (now - start) / duration);
        pivot.rotation.y = angle * ease(t);
        if (t >= 1) {
          root.remove(pivot);
          disposeGroup(pivot);
          buildCubies(view);
          return false;
        }
        return true;
      });
    } else if (move.kind === "flip") {
      stage.animate((now) => {
        if (mine !== generation) return false;
        const t = Math.min(1, (now - start) / (duration * 1.4));
        cubies.rotation.x = Math.PI * ease(t);
        if (t >= 1) {
          cubies.rotation.x = 0;
          buildCubies(view);
          return false;
        }
        return true;
      });
    } else {
      buildCubies(view);
      const r = move.column;
      const z = view.columns[r].length - 1;
      const mesh = cubies.children.find((c) => c.userData.r === r && c.userData.z === z);
      if (!mesh) return;
      const target = mesh.position.y;
      stage.animate((now) => {
        if (mine !== generation) return false;
        const t = Math.min(1, (now - start) / duration);
        mesh.position.y = target + (1 - t * t) * 2.6;
        if (t < 1) return true;
        publishDrawn(); // a redraw mid-fall (e.g. a suggestion arriving) read the cubie in the air
        return false;
      });
    }
  }

  /** Turn the camera round to face the winning line (it may be at the back). */
  let facedWin = "";
  function faceWinningLine(view: CageView): void {
    const signature = JSON.stringify(view.winning_cells);
    if (!view.winning_cells.length || signature === facedWin) return;
    facedWin = signature;
    const centre = new THREE.Vector3();
    for (const [r, z] of view.winning_cells) centre.add(cellPosition(r, z));
    centre.divideScalar(view.winning_cells.length);
    if (Math.hypot(centre.x, centre.z) < 0.1) return;
    const camera = stage.camera;
    const flat = Math.hypot(camera.position.x, camera.position.z);
    const angle = Math.atan2(centre.x, centre.z) + 0.45;
    camera.position.set(Math.sin(angle) * flat, camera.position.y, Math.cos(angle) * flat);
    camera.lookAt(0, -0.3, 0);
    stage.controls?.update();
    stage.requestRender();
  }

  function renderControls(view: CageView): void {
    const ctx = context!;
    const legal = new Set(ctx.legal.map((m) => m.move));
    // Palette: the colours of the player whose view this is (or the one to move).
    const seat = ctx.viewer ?? view.to_move;
    const mine = seat !== null && seat >= 0 ? view.colours[seat] ?? [] : [];
    palette.replaceChildren();
    const dropColours = new Set(dropMoves().map((m) => m.colour));
    if (selected && !dropColours.has(selected)) selected = null;
    if (!selected && dropColours.size) selected = mine.find((c) => dropColours.has(c)) ?? [...dropColours][0];
    for (const letter of view.colours.flat()) {
      const colour = COLOURS[letter];
      const left = view.left[letter];
      const button = el(
        "button",
        {
          type: "button",
          class: "swatch",
          "data-colour": letter,
          "aria-pressed": String(letter === selected),
          "aria-label": `${colour.name}${left !== undefined ? `, ${left} left` : ""}`,
        },
        el("span", { class: "chip", style: `background:${colour.css}`, text: colour.symbol }),
        ` ${letter}${left !== undefined ? ` ×${left}` : ""}`,
      );
      if (left !== undefined) button.dataset.left = String(left);
      button.disabled = !dropColours.has(letter);
      if (!mine.includes(letter)) button.classList.add("theirs");
      button.addEventListener("click", () => {
        selected = letter;
        renderControls(view);
      });
      palette.append(button);
    }
    // Column buttons: contents bottom -> top, enabled where a drop of the chosen colour is legal.
    view.columns.forEach((column, r) => {
      const button = columnButtons[r];
      const can = dropMoves(r);
      button.replaceChildren(
        el("span", { class: "col-name", text: String(r) }),
        el("span", { class: "stack" }, ...[0, 1, 2].map((z) => {
          const letter = column[z];
          const chip = el("span", { class: "chip" + (letter ? "" : " empty"), text: letter ? COLOURS[letter].symbol : "" });
          if (letter) chip.style.background = COLOURS[letter].css;
          if (view.winning_cells.some(([wr, wz]) => wr === r && wz === z)) chip.classList.add("win");
          return chip;
        }).reverse()),
      );
      const label = `Column ${r}: ${column.length ? column.join(" ") : "empty"}` + (can.length ? `; drop ${selected ?? ""}` : "");
      button.setAttribute("aria-label", label);
      button.classList.toggle("suggested", suggestedColumn() === r);
      button.disabled = !can.some((m) => m.colour === selected) && !(can.length === 1);
    });
    // Twists and flip: every one shown; the forbidden reverse greyed out with a reason.
    turns.replaceChildren();
    const forbidden = new Set(view.forbidden);
    for (const turn of [...view.turns].sort((a, b) => turnRank(b) - turnRank(a))) {
      const move = turn.move;
      const words = turn.kind === "twist" ? `Layer ${turn.layer} ${turn.direction === "+" ? "↺" : "↻"}` : "Flip ⟲";
      const button = el("button", { type: "button", class: "turn", "data-turn": move, text: words, title: `${move}: ${cageWords(turn)}` });
      if (forbidden.has(move)) {
        button.classList.add("forbidden");
        button.title = `${move}: forbidden — it would reverse the last move`;
      }
      button.disabled = !legal.has(move);
      if (ctx.suggested === move) button.classList.add("suggested");
      button.addEventListener("click", () => ctx.play(move));
      turns.append(button);
    }
    // Each player's colours, as the engine's view gives them (never guessed from the seat count).
    seatColours.replaceChildren(
      ...view.colours.map((owned, i) =>
        el(
          "span",
          { class: "seat-colours", "data-seat": String(i) },
          `Player ${i + 1}: `,
          ...owned.map((letter) => el("span", { class: "chip", "data-colour": letter, style: `background:${COLOURS[letter]?.css ?? "#888"}`, title: COLOURS[letter]?.name ?? letter, text: COLOURS[letter]?.symbol ?? letter })),
          " ",
        ),
      ),
    );
    publishDrawn();
    const lines = view.winning_cells.length ? " · winning line lit" : "";
    info.textContent = `${ctx.replay ? "Replay" : "Last move"}: ${view.last_move ?? "—"}${lines}`;
  }

  return {
    element,
    group: cageGroup,
    update(ctx) {
      context = ctx;
      const view = ctx.view;
      if (!view.columns) return;
      const previous = shown;
      shown = view;
      const sameBoard = previous && JSON.stringify(previous.columns) === JSON.stringify(view.columns) && previous.last_move === view.last_move && JSON.stringify(previous.winning_cells) === JSON.stringify(view.winning_cells);
      if (!sameBoard) animateChange(previous, view);
      faceWinningLine(view);
      publishColumns();
      renderControls(view);
      highlight(null);
      element.dataset.suggested = ctx.suggested ?? "";
    },
    dispose() {
      stage.dispose();
    },
  };
}
