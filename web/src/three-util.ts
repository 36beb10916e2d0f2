// Small shared helpers for the three.js boards: renderer creation with a clear fallback,
// render-on-demand loop, resizing.
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
    canvasBox.append(renderer.domElement);
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
