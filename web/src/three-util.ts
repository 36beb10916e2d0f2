// Small shared helpers for the three.js boards: renderer creation with a clear fallback,
// render-on-demand loop, resizing, picking, camera-facing text labels.
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";

export interface Stage {
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  renderer: THREE.WebGLRenderer | null;
  controls: OrbitControls | null;
  canvasBox: HTMLElement;
  requestRender: () => void;
  /** Run a step function every frame until it returns false. */
  animate: (step: (now: number) => boolean) => void;
  /** The nearest of `objects` (or their children) under the pointer, or null. */
  pick: (event: PointerEvent, objects: THREE.Object3D[]) => THREE.Intersection | null;
  /** Where a world point appears on the canvas, in CSS pixels from its top-left corner. */
  project: (point: THREE.Vector3) => { x: number; y: number };
  dispose: () => void;
}

export function createStage(label: string, cameraPosition: THREE.Vector3, target: THREE.Vector3): Stage {
  const canvasBox = document.createElement("div");
  canvasBox.className = "canvas-box";
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf3efe6);
  const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 100);
  camera.position.copy(cameraPosition);
  camera.lookAt(target);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x8a7f70, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(4, 8, 6);
  scene.add(sun);

  let renderer: THREE.WebGLRenderer | null = null;
  let controls: OrbitControls | null = null;
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.domElement.setAttribute("role", "img");
    renderer.domElement.setAttribute("aria-label", label);
    renderer.domElement.classList.add("board-canvas");
    canvasBox.append(renderer.domElement, orbitHint());
    controls = new OrbitControls(camera, renderer.domElement);
    controls.target.copy(target);
    controls.enableDamping = false;
    controls.minDistance = 4;
    controls.maxDistance = 30;
    controls.update();
  } catch {
    renderer = null;
    const note = document.createElement("p");
    note.className = "muted no-webgl";
    note.textContent = "3D view unavailable (no WebGL in this browser); the controls below show the whole position.";
    canvasBox.append(note);
  }

  let pending = false;
  const steps: ((now: number) => boolean)[] = [];
  let disposed = false;
  function frame(now: number): void {
    pending = false;
    if (disposed || !renderer) return;
    for (let i = steps.length - 1; i >= 0; i--) if (!steps[i](now)) steps.splice(i, 1);
    renderer.render(scene, camera);
    if (steps.length) requestRender();
  }
  function requestRender(): void {
    if (pending || disposed) return;
    pending = true;
    requestAnimationFrame(frame);
  }
  controls?.addEventListener("change", requestRender);
  // A drag that turned the view (not a click, not the boards' own framing) retires the hint.
  let dragging = false;
  controls?.addEventListener("start", () => (dragging = true));
  controls?.addEventListener("end", () => (dragging = false));
  controls?.addEventListener("change", () => {
    if (dragging) canvasBox.dataset.orbited = "true";
  });

  function resize(): void {
    if (!renderer) return;
    const width = Math.max(200, canvasBox.clientWidth);
    const height = Math.max(240, Math.min(560, Math.round(width * 0.8)));
    renderer.setSize(width, height, false);
    renderer.domElement.style.width = "100%";
    renderer.domElement.style.height = `${height}px`;
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    requestRender();
  }
  const observer = new ResizeObserver(resize);
  observer.observe(canvasBox);

  const raycaster = new THREE.Raycaster();
  function pick(event: PointerEvent, objects: THREE.Object3D[]): THREE.Intersection | null {
    if (!renderer) return null;
    const rect = renderer.domElement.getBoundingClientRect();
    const pointer = new THREE.Vector2(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    const hits = raycaster.intersectObjects(objects, true);
    return hits[0] ?? null;
  }

  return {
    scene,
    camera,
    renderer,
    controls,
    canvasBox,
    requestRender,
    animate(step) {
      steps.push(step);
      requestRender();
    },
    pick,
    project(point) {
      const rect = renderer ? renderer.domElement.getBoundingClientRect() : { width: 0, height: 0 };
      // The controls move the camera without updating its matrices (rendering does): bring
      // them up to date, or a point read during a drag lands where the view was a frame ago.
      camera.updateMatrixWorld();
      const v = point.clone().project(camera);
      return { x: Math.round(((v.x + 1) / 2) * rect.width), y: Math.round(((1 - v.y) / 2) * rect.height) };
    },
    dispose() {
      disposed = true;
      observer.disconnect();
      controls?.dispose();
      renderer?.dispose();
    },
  };
}

/**
 * A small caption in the canvas' corner saying the view can be turned; it fades once the player
 * has dragged (the stage marks the box `data-orbited`), since by then they know.
 */
function orbitHint(): HTMLElement {
  const hint = document.createElement("span");
  hint.className = "orbit-hint";
  hint.textContent = "Drag to turn the view · scroll to zoom";
  return hint;
}

/** A flat text label that always faces the camera, drawn on a canvas (no fonts fetched). */
export interface LabelStyle {
  background: string;
  ink: string;
  /** World-space height of the label; its width follows the text. */
  height: number;
}
export const LABEL: LabelStyle = { background: "rgba(255, 253, 248, 0.88)", ink: "#3a2d1c", height: 0.45 };

export function textSprite(text: string, style: LabelStyle = LABEL): THREE.Sprite {
  const canvas = document.createElement("canvas");
  const g = canvas.getContext("2d");
  const font = "bold 40px system-ui, sans-serif";
  // Size the canvas to the text so no label is ever clipped, whatever its length.
  let width = 96;
  if (g) {
    g.font = font;
    width = Math.max(96, Math.ceil(g.measureText(text).width) + 40);
  }
  canvas.width = width;
  canvas.height = 72;
  if (g) {
    g.fillStyle = style.background;
    g.beginPath();
    g.roundRect(3, 3, width - 6, 66, 16);
    g.fill();
    g.fillStyle = style.ink;
    g.font = font;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(text, width / 2, 38);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture }));
  sprite.scale.set((style.height * width) / 72, style.height, 1);
  sprite.userData.text = text;
  return sprite;
}

/** Distinguish a click from an orbit drag. */
export function onClick(element: HTMLElement, handler: (event: PointerEvent) => void): void {
  let down: { x: number; y: number } | null = null;
  element.addEventListener("pointerdown", (event) => {
    down = { x: event.clientX, y: event.clientY };
  });
  element.addEventListener("pointerup", (event) => {
    if (down && Math.hypot(event.clientX - down.x, event.clientY - down.y) < 6) handler(event);
    down = null;
  });
}

/** Empty a group, freeing its geometries (except those marked `userData.shared`). */
export function disposeGroup(group: THREE.Object3D): void {
  group.traverse((object) => {
    const mesh = object as THREE.Mesh;
    if (mesh.geometry && !mesh.geometry.userData.shared) mesh.geometry.dispose();
  });
  group.clear();
}
