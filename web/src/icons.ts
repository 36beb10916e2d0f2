// Small icons drawn as inline SVG, shipped with the page: symbol glyphs such as ⏮ ⏭ are missing
// from some systems' fonts (Debian's Chromium drew them as empty boxes).

const SVG = "http://www.w3.org/2000/svg";

/** The shapes of each icon, in a 16×16 box: bars and triangles. */
const SHAPES: Record<IconName, string[]> = {
  first: ["M3 3h2v10H3z", "M13 3v10L6 8z"],
  last: ["M11 3h2v10h-2z", "M3 3v10l7-5z"],
  prev: ["M12 3v10L5 8z"],
  next: ["M4 3v10l7-5z"],
};

export type IconName = "first" | "last" | "prev" | "next";

/** An icon the size of the text around it, hidden from screen readers (its button is labelled). */
export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "1em");
  svg.setAttribute("height", "1em");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "icon");
  svg.dataset.icon = name;
  for (const d of SHAPES[name]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "currentColor");
    svg.append(path);
  }
  return svg;
}
