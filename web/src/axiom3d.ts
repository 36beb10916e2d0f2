// Axiom in 3D: domed cubes, recesses, sceptres. Click a sceptre to light its destinations and
// click one to move; click a cube to see its target cells, pick one, then a dome placement.
// Everything offered comes from the server's legal moves, chosen by their parts (the piece's
// cell, the target cell, the face or the domes); everything drawn from the engine's view (cubes,
// sceptres, side to move, result). No rules are worked out here and no notation is read.
import * as THREE from "three";
import { el } from "./api";
import type { AxiomCell, AxiomMove, AxiomView, Board, BoardContext } from "./types";
import { createStage, disposeGroup, onClick, textSprite } from "./three-util";

type Vec = [number, number, number];
export interface AxiomPiece {
  colour: string;
  kind: "C" | "S";
  cell: Vec;
  faces: string[];
}

const DIRS: Record<string, Vec> = {
  "x+": [1, 0, 0],
  "x-": [-1, 0, 0],
  "y+": [0, 1, 0],
  "y-": [0, -1, 0],
  "z+": [0, 0, 1],
  "z-": [0, 0, -1],
};

/** The pieces to draw, straight from the view's lists. */
function piecesOf(view: AxiomView): AxiomPiece[] {
  return [
    ...(view.cubes ?? []).map((c): AxiomPiece => ({ colour: c.colour, kind: "C", cell: [c.x, c.y, c.z], faces: [...c.domes] })),
    ...(view.sceptres ?? []).map((s): AxiomPiece => ({ colour: s.colour, kind: "S", cell: [s.x, s.y, s.z], faces: [s.face] })),
  ];
}

const key = (v: Vec) => v.join(",");
const cellText = (v: Vec) => `(${v.join(",")})`;
const vec = (cell: AxiomCell): Vec => [cell.x, cell.y, cell.z];
/** The faces a move leaves its piece showing: a sceptre's face, or a cube's domes. */
const facesOf = (move: AxiomMove): string[] => (move.kind === "sceptre" ? [move.face] : move.domes);
/** The id of the piece a move moves, as the picker and the scene name pieces: "S(-1,0,2)". */
const pieceOf = (move: AxiomMove): string => `${move.kind === "sceptre" ? "S" : "C"}${cellText(vec(move.source))}`;

/** Which way a face or dome points, as players say it (north/east follow the table's compass). */
const DIRECTION_WORDS: Record<string, string> = {
  "z+": "up",
  "z-": "down",
  "x+": "east",
  "x-": "west",
  "y+": "north",
  "y-": "south",
};
/** The face of a cube a sceptre stands on. */
const FACE_WORDS: Record<string, string> = {
  "z+": "top",
  "z-": "underside",
  "x+": "east face",
  "x-": "west face",
  "y+": "north face",
  "y-": "south face",
};

/** "dome facing down (z-)" / "domes facing east + up (x+ z+)" (without the names in brackets
 *  when ``named`` is false). */
export function domeWords(faces: string[], named = true): string {
  if (!faces.length) return "no dome";
  const words = faces.map((f) => DIRECTION_WORDS[f] ?? f).join(" + ");
  return `${faces.length === 1 ? "dome" : "domes"} facing ${words}${named ? ` (${faces.join(" ")})` : ""}`;
}

/** A move in a player's words, from its parts: "Sceptre (-1,0,2) to the top of (0,0,2)". */
export function axiomMoveWords(move: AxiomMove): string {
  const from = cellText(vec(move.source));
  const to = cellText(vec(move.target));
  if (move.kind === "sceptre") return `Sceptre ${from} to the ${FACE_WORDS[move.face] ?? move.face} of ${to}`;
  return `Cube ${from} to ${to}, ${domeWords(move.domes, false)}`;
}

/** The group a move is listed under: the piece it moves. */
function axiomGroup(move: AxiomMove): string {
  return `${move.kind === "sceptre" ? "Sceptre on" : "Cube at"} ${cellText(vec(move.source))}`;
}

/** A piece as one text: kind, colour, cell and faces (equal pieces, equal keys). */
function pieceKey(piece: AxiomPiece): string {
  return `${piece.kind} ${piece.colour} ${key(piece.cell)} ${piece.faces.join(" ")}`;
}

function toThree(cell: Vec): THREE.Vector3 {
  return new THREE.Vector3(cell[0], cell[2] - 0.5, -cell[1]);
}
function dirThree(face: string): THREE.Vector3 {
  const [x, y, z] = DIRS[face];
  return new THREE.Vector3(x, z, -y);
}

const CUBE: Record<string, number> = { black: 0x34343c, white: 0xece6d6 };

const SCEPTRE: Record<string, number> = { black: 0xc62828, white: 0x1e63c9 };
/** How players name the sceptre colours drawn above (Black plays red, White blue). */
const SCEPTRE_WORDS: Record<string, string> = { black: "red", white: "blue" };
const css = (hex: number) => `#${hex.toString(16).padStart(6, "0")}`;

/**
 * The board's key: which cubes and sceptres are whose, one line per side, from the pieces the
 * view lists (never assumed), the side to move marked. Lives in the canvas' corner.
 */
function renderLegend(legend: HTMLElement, view: AxiomView, viewer: number | null): void {
  const sides = new Map<number, string>();
  for (const piece of [...(view.cubes ?? []), ...(view.sceptres ?? [])]) sides.set(piece.owner, piece.colour);
  const entries = [...sides.entries()].sort((a, b) => a[0] - b[0]);
  legend.replaceChildren(
    ...entries.map(([owner, colour]) => {
      const name = colour[0].toUpperCase() + colour.slice(1);
      const line = el(
        "span",
        { class: "side", "data-owner": String(owner), "data-colour": colour, "data-sceptre": SCEPTRE_WORDS[colour] },
        el("span", { class: "cube-swatch", style: `background:${css(CUBE[colour])}` }),
        el("span", { class: "sceptre-swatch", style: `background:${css(SCEPTRE[colour])}` }),
        `${name}: ${SCEPTRE_WORDS[colour]} sceptres${owner === viewer ? " (you)" : ""}`,
      );
      if (view.colour_to_move === colour && !view.result) line.classList.add("to-move");
      return line;
    }),
  );
}

export function createAxiomBoard(): Board<AxiomView, AxiomMove> {
  const stage = createStage("Axiom in 3D", new THREE.Vector3(4.4, 5.0, 6.6), new THREE.Vector3(0, 0.9, -0.5));
  const { scene } = stage;
  const table = new THREE.Mesh(new THREE.CircleGeometry(6, 48), new THREE.MeshStandardMaterial({ color: 0x9c7b55, roughness: 0.9 }));
  table.rotation.x = -Math.PI / 2;
  table.position.y = -0.001;
  scene.add(table);
  const grid = new THREE.GridHelper(10, 10, 0x7a5f40, 0x86694a);
  grid.position.set(0.5, 0.001, 0.5);
  scene.add(grid);
  const pieces = new THREE.Group();
  const markers = new THREE.Group();
  const compass = new THREE.Group();
  scene.add(pieces, markers, compass);
  for (const [face, letter] of [["y+", "N"], ["x+", "E"], ["y-", "S"], ["x-", "W"]] as const) {
    const sprite = textSprite(`${letter} ${face}`);
    sprite.userData = { face };
    // Drawn over everything: a letter behind the structure was cut off or hidden by it.
    sprite.material.depthTest = false;
    sprite.renderOrder = 1;
    compass.add(sprite);
  }

  const legend = el("div", { class: "board-legend axiom-legend", id: "axiom-legend", "aria-label": "Whose pieces are whose" });
  stage.canvasBox.append(legend);
  const info = el("p", { class: "muted axiom-info", id: "axiom-info" });
  const picker = el("div", { class: "axiom-picker", id: "axiom-picker", role: "group", "aria-label": "Your pieces and their moves" });
  const element = el("div", { class: "axiom-board" }, stage.canvasBox, info, picker);

  let context: BoardContext<AxiomView, AxiomMove> | null = null;
  let selected: string | null = null; // "S(x,y,z)" or "C(x,y,z)": the piece of pieceOf(move)
  let selectedKind: AxiomMove["kind"] | null = null;
  let target: string | null = null; // cube target cell key
  let hoverTarget: string | null = null; // target cell under the pointer (3D) or a focused button
  let preview: AxiomMove | null = null; // the placement previewed (hover/focus on its button)
  let current: AxiomPiece[] = [];
  /** The pieces that arrived with the last change of position (the move just played). */
  let arrived = new Set<string>();
  let lastPosition = "";
  let shownView: AxiomView | null = null;

  const domeGeometry = new THREE.SphereGeometry(0.26, 24, 12, 0, Math.PI * 2, 0, Math.PI / 2);
  const ringGeometry = new THREE.RingGeometry(0.18, 0.27, 28);
  const boxGeometry = new THREE.BoxGeometry(0.96, 0.96, 0.96);
  const domeMaterial = new THREE.MeshStandardMaterial({ color: 0xd9a21b, metalness: 0.55, roughness: 0.3 });
  const recessMaterial = new THREE.MeshStandardMaterial({ color: 0x8a8a8a, side: THREE.DoubleSide });
  // Shared by every cube and ghost: kept when pieces and markers are rebuilt.
  for (const geometry of [domeGeometry, ringGeometry, boxGeometry]) geometry.userData.shared = true;

  function cubeMesh(piece: { colour: string; cell: Vec; faces: string[] }, ghost = false): THREE.Group {
    const group = new THREE.Group();
    const material = new THREE.MeshStandardMaterial({ color: CUBE[piece.colour], roughness: 0.55, transparent: ghost, opacity: ghost ? 0.45 : 1 });
    const box = new THREE.Mesh(boxGeometry, material);
    group.add(box);
    for (const face of Object.keys(DIRS)) {
      const n = dirThree(face);
      const up = new THREE.Vector3(0, 1, 0);
      if (piece.faces.includes(face)) {
        const dome = new THREE.Mesh(domeGeometry, ghost ? new THREE.MeshStandardMaterial({ color: 0xd9a21b, transparent: true, opacity: 0.6 }) : domeMaterial);
        dome.position.copy(n.clone().multiplyScalar(0.48));
        dome.quaternion.setFromUnitVectors(up, n);
        group.add(dome);
      } else if (!ghost) {
        const ring = new THREE.Mesh(ringGeometry, recessMaterial);
        ring.position.copy(n.clone().multiplyScalar(0.485));
        ring.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
        group.add(ring);
      }
    }
    group.position.copy(toThree(piece.cell));
    return group;
  }

  function sceptreMesh(piece: AxiomPiece): THREE.Group {
    const group = new THREE.Group();
    const material = new THREE.MeshStandardMaterial({ color: SCEPTRE[piece.colour], roughness: 0.35, metalness: 0.2 });
    const shaft = new THREE.Mesh(new THREE.CylinderGeometry(0.09, 0.14, 0.5, 16), material);
    shaft.position.y = 0.25;
    const head = new THREE.Mesh(new THREE.SphereGeometry(0.16, 16, 12), material);
    head.position.y = 0.56;
    group.add(shaft, head);
    const n = dirThree(piece.faces[0] ?? "z+");
    group.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), n);
    group.position.copy(toThree(piece.cell)).add(n.clone().multiplyScalar(0.48));
    return group;
  }

  /** The legal moves of the piece ``id`` (see pieceOf). */
  function ownMoves(id: string): AxiomMove[] {
    return (context?.legal ?? []).filter((m) => pieceOf(m) === id);
  }

  function markSelected(object: THREE.Object3D, colour: number): void {
    object.traverse((child) => {
      const mesh = child as THREE.Mesh;
      const material = mesh.material as THREE.MeshStandardMaterial | undefined;
      if (material && "emissive" in material) {
        mesh.material = material.clone();
        (mesh.material as THREE.MeshStandardMaterial).emissive = new THREE.Color(colour);
        (mesh.material as THREE.MeshStandardMaterial).emissiveIntensity = 0.45;
      }
    });
  }

  function build(): void {
    disposeGroup(pieces);
    // A suggested move (analysis best move or hint): its piece outlined gold, its goal a gold ball.
    const suggestion = context?.suggestion ?? null;
    for (const piece of current) {
      const mesh = piece.kind === "C" ? cubeMesh(piece) : sceptreMesh(piece);
      const id = `${piece.kind}${cellText(piece.cell)}`;
      mesh.userData = { id, piece };
      if (id === selected && piece.kind === "S") {
        markSelected(mesh, 0xffffff);
        mesh.scale.setScalar(1.25);
      } else if (id === selected) markSelected(mesh, 0x36c275);
      else if (arrived.has(pieceKey(piece))) markSelected(mesh, 0x6a4cff);
      else if (suggestion && pieceOf(suggestion) === id) markSelected(mesh, 0xe9a400);
      pieces.add(mesh);
    }
    publishDrawn();
    buildMarkers();
  }

  /**
   * What the board drew, read back from the scene (not from the view): each cube's cell from
   * its mesh's place, its colour from its material and its domes from where the dome meshes sit;
   * each sceptre's cube and face from its mesh's place and orientation. On `data-drawn`.
   */
  function publishDrawn(): void {
    const round = (v: number) => Math.round(v * 2) / 2;
    const faceOf = (n: THREE.Vector3) => Object.keys(DIRS).find((face) => dirThree(face).distanceTo(n) < 0.01) ?? "?";
    const colourOf = (object: THREE.Object3D, table: Record<string, number>) => {
      const material = (object as THREE.Mesh).material as THREE.MeshStandardMaterial;
      return Object.keys(table).find((name) => material.color.getHex() === new THREE.Color(table[name]).getHex()) ?? "?";
    };
    const cellOf = (p: THREE.Vector3): Vec => [round(p.x), round(-p.z), round(p.y + 0.5)];
    const cubes: { x: number; y: number; z: number; colour: string; domes: string[] }[] = [];
    const sceptres: { x: number; y: number; z: number; colour: string; face: string }[] = [];
    for (const group of pieces.children) {
      const box = group.children.find((c) => (c as THREE.Mesh).geometry === boxGeometry);
      if (box) {
        const [x, y, z] = cellOf(group.position);
        const domes = group.children
          .filter((c) => (c as THREE.Mesh).geometry === domeGeometry)
          .map((c) => faceOf(c.position.clone().normalize()));
        cubes.push({ x, y, z, colour: colourOf(box, CUBE), domes: Object.keys(DIRS).filter((f) => domes.includes(f)) });
      } else {
        const n = new THREE.Vector3(0, 1, 0).applyQuaternion(group.quaternion);
        const [x, y, z] = cellOf(group.position.clone().sub(n.clone().multiplyScalar(0.48)));
        sceptres.push({ x, y, z, colour: colourOf(group.children[0], SCEPTRE), face: faceOf(n) });
      }
    }
    element.dataset.drawn = JSON.stringify({ cubes, sceptres });
  }

  /**
   * What the selected piece may do, kept sparse: a sceptre's destinations as green balls; a
   * cube's target cells as small green balls, with a see-through cube only where the pointer is
   * (or the cell chosen), and the domes only for the placement being previewed.
   */
  function buildMarkers(): void {
    disposeGroup(markers);
    const markerMaterial = () => new THREE.MeshStandardMaterial({ color: 0x2ecc71, emissive: 0x1a8f4d, emissiveIntensity: 0.6 });
    if (selected) {
      const moves = ownMoves(selected);
      if (selectedKind === "sceptre") {
        for (const move of moves) {
          const n = dirThree(facesOf(move)[0] ?? "z+");
          const marker = new THREE.Mesh(new THREE.SphereGeometry(0.17, 16, 12), markerMaterial());
          marker.position.copy(toThree(vec(move.target))).add(n.multiplyScalar(0.62));
          marker.userData = { move: move.move };
          markers.add(marker);
        }
      } else {
        const piece = current.find((p) => p.kind === "C" && `C${cellText(p.cell)}` === selected);
        const seen = new Set<string>();
        for (const move of moves) {
          const to = vec(move.target);
          const cell = key(to);
          if (seen.has(cell)) continue;
          seen.add(cell);
          const chosen = cell === target;
          if (chosen || cell === hoverTarget) {
            const shown = preview && key(vec(preview.target)) === cell ? facesOf(preview) : [];
            const ghost = cubeMesh({ colour: piece?.colour ?? "black", cell: to, faces: shown }, true);
            ghost.scale.setScalar(chosen ? 0.92 : 0.8);
            ghost.userData = { target: cell };
            markers.add(ghost);
          } else {
            const marker = new THREE.Mesh(new THREE.SphereGeometry(0.15, 14, 10), markerMaterial());
            marker.position.copy(toThree(to));
            marker.userData = { target: cell };
            markers.add(marker);
          }
        }
      }
    }
    const suggestion = context?.suggestion ?? null;
    if (suggestion) {
      // Drawn over everything (a hinted cell may lie behind the structure), so it is picked first.
      const gold = new THREE.MeshStandardMaterial({ color: 0xe9a400, emissive: 0x8a5a00, emissiveIntensity: 0.7, depthTest: false });
      const spot = new THREE.Mesh(new THREE.SphereGeometry(0.21, 16, 12), gold);
      spot.renderOrder = 2;
      spot.position.copy(toThree(vec(suggestion.target)));
      if (suggestion.kind === "sceptre") spot.position.add(dirThree(suggestion.face).multiplyScalar(0.62));
      // The ball carries the hinted move, so clicking it plays it (it sits over the green ball
      // of the same destination and would otherwise swallow the click). In a replay, or when
      // the move is not this browser's to make, it is only a picture.
      const playable = context?.legal.some((m) => m.move === suggestion.move) ?? false;
      spot.userData = playable ? { move: suggestion.move, suggested: true } : { suggested: true };
      markers.add(spot);
    }
    element.dataset.suggested = context?.suggested ?? "";
    publishTargets();
    stage.requestRender();
  }

  /**
   * Frame the whole structure: aim at the middle of its bounding sphere and step back until all
   * of it is in view, keeping the direction the player looks from. Runs after every move.
   */
  function frame(smooth: boolean): void {
    if (!pieces.children.length) return;
    pieces.updateMatrixWorld(true);
    const box = new THREE.Box3().setFromObject(pieces);
    box.expandByPoint(new THREE.Vector3(box.min.x, 0, box.min.z)); // the table under it
    // The compass letters sit on the table just outside the structure, and are framed with it
    // (a label past the canvas' edge was cut off).
    const middle = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3());
    for (const sprite of compass.children) {
      const n = dirThree((sprite.userData as { face: string }).face);
      sprite.position.set(middle.x + n.x * (size.x / 2 + 1.1), 0.25, middle.z + n.z * (size.z / 2 + 1.1));
    }
    for (const sprite of compass.children) {
      const reach = new THREE.Vector3(sprite.scale.x / 2, sprite.scale.y / 2, sprite.scale.x / 2);
      box.expandByPoint(sprite.position.clone().add(reach)).expandByPoint(sprite.position.clone().sub(reach));
    }
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const radius = Math.max(2.2, sphere.radius + 0.35);
    const camera = stage.camera;
    const controls = stage.controls;
    const fromTarget = controls ? controls.target.clone() : sphere.center.clone();
    const fromPosition = camera.position.clone();
    const direction = fromPosition.clone().sub(fromTarget).normalize();
    const vertical = THREE.MathUtils.degToRad(camera.fov);
    const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * camera.aspect);
    const distance = Math.min(28, radius / Math.sin(Math.min(vertical, horizontal) / 2));
    const toTarget = sphere.center.clone();
    const toPosition = toTarget.clone().add(direction.multiplyScalar(distance));
    const apply = (t: number) => {
      camera.position.lerpVectors(fromPosition, toPosition, t);
      if (controls) {
        controls.target.lerpVectors(fromTarget, toTarget, t);
        controls.update();
      } else camera.lookAt(toTarget);
      camera.updateMatrixWorld(true);
      publishTargets();
    };
    if (!smooth || !stage.renderer) {
      apply(1);
      stage.requestRender();
      return;
    }
    const start = performance.now();
    element.dataset.framing = "moving";
    stage.animate((now) => {
      const t = Math.min(1, (now - start) / 400);
      apply(t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2);
      if (t >= 1) element.dataset.framing = "still";
      return t < 1;
    });
  }

  /** Publish where sceptre heads and destination markers show on the canvas (tests, tools). */
  function publishTargets(): void {
    if (!stage.renderer) return;
    scene.updateMatrixWorld(true);
    const points: { id?: string; move?: string; target?: string; hint?: string; playable?: boolean; x: number; y: number }[] = [];
    for (const group of pieces.children) {
      const data = group.userData as { id?: string; piece?: AxiomPiece };
      if (data.piece?.kind !== "S") continue;
      const head = group.children[1].getWorldPosition(new THREE.Vector3());
      points.push({ id: data.id, ...stage.project(head) });
    }
    for (const marker of markers.children) {
      const data = marker.userData as { move?: string; target?: string; suggested?: boolean };
      const at = () => stage.project(marker.getWorldPosition(new THREE.Vector3()));
      if (data.suggested) points.push({ hint: context?.suggested ?? "", playable: !!data.move, ...at() });
      else if (data.move) points.push({ move: data.move, ...at() });
      else if (data.target) points.push({ target: data.target, ...at() });
    }
    stage.renderer.domElement.dataset.targets = JSON.stringify(points);
    // Where the whole structure shows on the canvas (its box's corners), to check the framing.
    if (pieces.children.length) {
      const box = new THREE.Box3().setFromObject(pieces);
      const xs: number[] = [];
      const ys: number[] = [];
      for (const x of [box.min.x, box.max.x])
        for (const y of [box.min.y, box.max.y])
          for (const z of [box.min.z, box.max.z]) {
            const p = stage.project(new THREE.Vector3(x, y, z));
            xs.push(p.x);
            ys.push(p.y);
          }
      const rect = stage.renderer.domElement.getBoundingClientRect();
      stage.renderer.domElement.dataset.frame = JSON.stringify({
        left: Math.min(...xs),
        top: Math.min(...ys),
        right: Math.max(...xs),
        bottom: Math.max(...ys),
        width: Math.round(rect.width),
        height: Math.round(rect.height),
      });
    }
  }
  stage.controls?.addEventListener("change", publishTargets);
  let framedSize = "";
  new ResizeObserver(() => {
    const size = `${stage.canvasBox.clientWidth}`;
    if (size !== framedSize && current.length) {
      framedSize = size;
      requestAnimationFrame(() => frame(false));
    } else publishTargets();
  }).observe(stage.canvasBox);

  function select(id: string | null): void {
    selected = id;
    selectedKind = id === null ? null : ownMoves(id)[0]?.kind ?? null;
    target = null;
    hoverTarget = null;
    preview = null;
    build();
    renderPicker();
  }

  function chooseTarget(cell: string): void {
    target = cell;
    preview = null;
    buildMarkers();
    renderPicker();
  }

  /** The hint says what this step wants, in a player's words. */
  function hint(): string {
    if (!selected) return "Step 1: pick a piece — click one of your sceptres or cubes, in 3D or in the list below.";
    if (selectedKind === "sceptre")
      return `Step 2: choose where the sceptre goes — click a green ball or a destination below (click the sceptre again to pick another piece).`;
    if (!target) return "Step 2 of 3: choose the cell the cube moves to — click a green ball (the cube shows where you point) or a cell below.";
    return `Step 3 of 3: choose which way the cube's domes face at (${target}) — point at a choice to preview it.`;
  }

  function renderPicker(): void {
    picker.replaceChildren();
    if (!context) return;
    const legal = context.legal;
    if (!legal.length) {
      const where = shownView?.result ? shownView.result.text : shownView?.colour_to_move ? `${shownView.colour_to_move} to move` : "";
      info.textContent = `${where} · drag to orbit, scroll to zoom`;
      info.setAttribute("data-step", "wait");
      return;
    }
    info.textContent = hint();
    info.setAttribute("data-step", !selected ? "piece" : selectedKind === "sceptre" ? "destination" : target ? "domes" : "cell");
    const origins = new Map<string, AxiomMove>();
    for (const move of legal) if (!origins.has(pieceOf(move))) origins.set(pieceOf(move), move);
    const row = el("div", { class: "pieces" }, el("span", { class: "group-label", text: "Your pieces" }));
    for (const [origin, move] of [...origins.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const where = cellText(vec(move.source));
      const b = el("button", { type: "button", class: "piece", "data-piece": origin, "aria-pressed": String(origin === selected), text: move.kind === "sceptre" ? `Sceptre ${where}` : `Cube ${where}` });
      b.addEventListener("click", () => select(origin === selected ? null : origin));
      row.append(b);
    }
    picker.append(row);
    if (!selected) return;
    const moves = ownMoves(selected);
    const list = el(
      "div",
      { class: "destinations" },
      el("span", { class: "group-label", text: selectedKind === "sceptre" ? "Where the sceptre goes" : "Cell the cube moves to" }),
    );
    if (selectedKind === "sceptre") {
      for (const move of moves) {
        const face = FACE_WORDS[facesOf(move)[0] ?? "z+"] ?? "";
        const b = el("button", { type: "button", class: "move", "data-move": move.move, text: `${face} of ${cellText(vec(move.target))}` });
        b.title = move.move;
        b.addEventListener("click", () => context?.play(move.move));
        list.append(b);
      }
    } else {
      const targets = [...new Set(moves.map((m) => key(vec(m.target))))];
      for (const t of targets) {
        const b = el("button", { type: "button", class: "target", "data-target": t, "aria-pressed": String(t === target), text: `(${t})` });
        b.addEventListener("click", () => chooseTarget(t));
        const point = (cell: string | null) => () => {
          if (hoverTarget === cell) return;
          hoverTarget = cell;
          buildMarkers();
        };
        b.addEventListener("mouseenter", point(t));
        b.addEventListener("mouseleave", point(null));
        list.append(b);
      }
    }
    picker.append(list);
    if (selectedKind === "cube" && target) {
      const options = moves.filter((m) => key(vec(m.target)) === target);
      const count = options[0] ? facesOf(options[0]).length : 1;
      const placements = el(
        "div",
        { class: "placements", role: "group", "aria-label": `Which way the dome${count === 1 ? "" : "s"} face` },
        el("span", { class: "group-label", text: `Which way the cube's dome${count === 1 ? " faces" : "s face"} at (${target}) — then it is placed` }),
      );
      for (const move of options) {
        const words = domeWords(facesOf(move));
        const b = el("button", { type: "button", class: "move dome-choice", "data-move": move.move, text: `Place with ${words}` });
        b.title = move.move;
        b.addEventListener("click", () => context?.play(move.move));
        const show = (on: boolean) => () => {
          preview = on ? move : preview === move ? null : preview;
          buildMarkers();
        };
        b.addEventListener("mouseenter", show(true));
        b.addEventListener("focus", show(true));
        b.addEventListener("mouseleave", show(false));
        b.addEventListener("blur", show(false));
        placements.append(b);
      }
      picker.append(placements);
    }
  }

  /**
   * Slide the sceptre that moved, fade out a cube gone from the new view, and celebrate a win.
   * What moved is read from the two views: the one sceptre that left a place and the one that
   * arrived at another, of the same side (a cube move moves no sceptre).
   */
  function animateMove(before: AxiomPiece[], after: AxiomPiece[], won: boolean): void {
    if (!stage.renderer) return;
    const start = performance.now();
    const had = new Set(before.map(pieceKey));
    const has = new Set(after.map(pieceKey));
    const left = before.filter((p) => p.kind === "S" && !has.has(pieceKey(p)));
    const came = after.filter((p) => p.kind === "S" && !had.has(pieceKey(p)));
    const oldSceptre = left.length === 1 && came.length === 1 && left[0].colour === came[0].colour ? left[0] : undefined;
    const newSceptre = oldSceptre ? came[0] : undefined;
    // buildCubies has run (update calls build after this returns); find the mesh on the next frame.
    requestAnimationFrame(() => {
      const mesh = pieces.children.find((g) => {
        const piece = (g.userData as { piece?: AxiomPiece }).piece;
        return piece !== undefined && newSceptre !== undefined && pieceKey(piece) === pieceKey(newSceptre);
      });
      if (mesh && oldSceptre) {
        const from = sceptreMesh(oldSceptre);
        const p0 = from.position.clone();
        const q0 = from.quaternion.clone();
        const p1 = mesh.position.clone();
        const q1 = mesh.quaternion.clone();
        stage.animate((now) => {
          const t = Math.min(1, (now - start) / 450);
          const e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
          mesh.position.lerpVectors(p0, p1, e);
          mesh.position.y += Math.sin(Math.PI * t) * 0.5;
          mesh.quaternion.slerpQuaternions(q0, q1, e);
          if (t >= 1 && won) mesh.scale.setScalar(1.25);
          return t < 1;
        });
      }
      const present = new Set(after.filter((p) => p.kind === "C").map((p) => key(p.cell)));
      for (const gone of before.filter((p) => p.kind === "C" && !present.has(key(p.cell)))) {
        const ghost = cubeMesh(gone, true);
        scene.add(ghost);
        stage.animate((now) => {
          const t = Math.min(1, (now - start) / 900);
          ghost.position.y = toThree(gone.cell).y - t * 1.2;
          ghost.scale.setScalar(1 - 0.6 * t);
          if (t >= 1) {
            scene.remove(ghost);
            disposeGroup(ghost);
          }
          return t < 1;
        });
      }
    });
  }

  if (stage.renderer) {
    onClick(stage.renderer.domElement, (event) => {
      if (!context || !context.legal.length) return;
      // The hint ball shows over everything, so it takes the click wherever it shows; one that
      // is only a picture (no move on it) must not swallow the click.
      const hinted = markers.children.filter((m) => m.userData.suggested && m.userData.move);
      const clickable = markers.children.filter((m) => (m.userData.move || m.userData.target) && !m.userData.suggested);
      const hit = stage.pick(event, hinted) ?? stage.pick(event, [...clickable, ...pieces.children]);
      if (!hit) return select(null);
      let object: THREE.Object3D | null = hit.object;
      while (object && !object.userData.id && !object.userData.move && !object.userData.target) object = object.parent;
      if (!object) return;
      if (object.userData.move) return context.play(object.userData.move as string);
      if (object.userData.target) return chooseTarget(object.userData.target as string);
      const id = object.userData.id as string;
      if (ownMoves(id).length) select(id === selected ? null : id);
    });
    // Pointing at a cube's target cell shows the cube there (only that one, never all of them).
    let pointed = 0;
    stage.renderer.domElement.addEventListener("pointermove", (event) => {
      if (!selected?.startsWith("C") || pointed) return;
      pointed = requestAnimationFrame(() => {
        pointed = 0;
        const hit = stage.pick(event, markers.children.filter((m) => m.userData.target));
        let object: THREE.Object3D | null = hit?.object ?? null;
        while (object && !object.userData.target) object = object.parent;
        const cell = (object?.userData.target as string | undefined) ?? null;
        if (cell !== hoverTarget) {
          hoverTarget = cell;
          buildMarkers();
        }
      });
    });
  }

  return {
    element,
    words: axiomMoveWords,
    group: axiomGroup,
    update(ctx) {
      const moves = (c: BoardContext<AxiomView, AxiomMove>) => c.legal.map((m) => m.move).join("|");
      const legalChanged = !context || moves(context) !== moves(ctx);
      const suggestionChanged = (context?.suggested ?? null) !== (ctx.suggested ?? null);
      context = ctx;
      const view = ctx.view;
      const position = JSON.stringify([view.cubes ?? [], view.sceptres ?? [], view.colour_to_move ?? "", view.result ?? null]);
      shownView = view;
      renderLegend(legend, view, ctx.viewer);
      if (legalChanged) {
        selected = null;
        target = null;
        hoverTarget = null;
        preview = null;
      }
      if (position !== lastPosition || legalChanged || ctx.replay || suggestionChanged) {
        const before = current;
        const changed = position !== lastPosition;
        lastPosition = position;
        current = piecesOf(view);
        if (changed) {
          const had = new Set(before.map(pieceKey));
          arrived = new Set(before.length ? current.map(pieceKey).filter((k) => !had.has(k)) : []);
        }
        if (changed && before.length) animateMove(before, current, typeof view.result?.winner === "number");
        // The pieces as text, for tests and assistive tools (the 3D view is a picture).
        element.dataset.pieces = current.map((p) => `${p.colour} ${p.kind} ${cellText(p.cell)} ${p.faces.join(" ")}`).sort().join("; ");
        build();
        // After every move (and on the first picture) the camera frames the whole structure.
        if (changed) frame(before.length > 0 && !ctx.replay);
      }
      renderPicker();
    },
    dispose() {
      stage.dispose();
    },
  };
}
