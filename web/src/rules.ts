// Rules help, written for players from the rulebooks and the project's rules pages.
import { el } from "./api";

interface Section {
  title: string;
  items: string[];
}

const RULES: Record<string, Section[]> = {
  cage: [
    {
      title: "Goal",
      items: [
        "Make a line of three cubies of one of your colours on an outer face of the cage: a row, a column or a diagonal of a side face (28 lines in all).",
        "Three cubies of different colours of yours do not count; a line made for another player on your move still wins for its owner.",
      ],
    },
    {
      title: "A turn — exactly one of",
      items: [
        "Drop one of your cubies into a column that is not full: it falls to the lowest free cell.",
        "Twist one horizontal layer a quarter turn either way; then every cubie falls down as far as it can.",
        "Flip the whole cage upside down; cubies settle again. New cubies always enter at the top.",
        "No direct reversal: you may not undo the move just made (after T1+ no T1-, after F no F). A drop forbids nothing.",
      ],
    },
    {
      title: "Players and the end",
      items: [
        "2 players: 3 colours each (W Y R against O B G); 3 players: 2 colours each; 4 players: 1 colour each.",
        "Right after the last cubie is dropped the game is a draw, unless that drop made a line.",
        "If one move makes lines for several players, the table's option decides (default: a draw).",
      ],
    },
    {
      title: "Notation",
      items: [
        "Drop: colour letter + column, e.g. R3. Columns 0–7 run counter-clockwise seen from above, 0 = front-left corner.",
        "Twist: T + layer (0 bottom … 2 top) + direction, e.g. T1+ (counter-clockwise from above) or T0-.",
        "Flip: F.",
        "Colours carry symbols: W ● circle, Y ▲ triangle, R ■ square, O ◆ diamond, B ★ star, G ✚ cross.",
      ],
    },
  ],
  axiom: [
    {
      title: "Goal",
      items: [
        "Move one of your sceptres onto a cube that holds an opponent's sceptre (on another face): you win.",
        "Ending on the cube that holds your own other sceptre loses (default table option).",
      ],
    },
    {
      title: "A turn: move one cube or one sceptre of your colour",
      items: [
        "Black moves first. Each side has 6 cubes (3 with one dome, 3 with two) and 2 sceptres.",
        "Sceptre: slides in a straight line over recessed faces and may stop on any face it passes. Lateral moves pass over cube edges and may climb inside corners; diagonal moves stay in one plane. Domes, other sceptres and the table block it.",
        "Cube: lifted and placed anywhere new where it interlocks (dome into recess) with at least one cube. It may not be moved while a sceptre stands on it or a cube sits on it; no dome may touch a dome or face the table; a cube above the table needs a cube under it, interlocked.",
        "Elimination: when your sceptre moves from an opponent's cube onto a cube of your colour, the cube it left is removed (unless a cube is on top of it).",
        "No legal move loses; the third repetition of a position, or 300 plies, is a draw.",
      ],
    },
    {
      title: "Playing here",
      items: [
        "The line under the picture says what each step wants. Click one of your sceptres (red = Black, blue = White): its destinations light up as green balls; click one to move.",
        "Click one of your cubes: its free target cells show as small green balls (pointing at one shows the cube there); click one, then choose which way the domes face (pointing at a choice previews it).",
        "Directions: the compass on the table — up/down is z+/z-, east/west x+/x-, north/south y+/y-.",
        "Notation: S(-1,0,2) S(0,0,2)z+ moves a sceptre from the cube at (-1,0,2) to the top (z+ face) of (0,0,2); C(0,0,2) C(-2,0,1)x- moves a cube to (-2,0,1) with its dome facing west (x-).",
        "The camera frames the whole structure after every move; drag to orbit, scroll to zoom.",
      ],
    },
  ],
  axia: [
    {
      title: "Goal",
      items: [
        "Build a 3×3 territory of Territory cards (a 6×6 grid of beasts) over 8 rounds and score the most points from your Scoring cards and kept Items.",
        "Solo: your final score gives your rank (0–80 Apprentice, 81–110 Novice, 111–150 Slayer, 151–200 Elite, 201+ Legend).",
      ],
    },
    {
      title: "Setup",
      items: [
        "Place Scoring cards on your 3 Row slots (left) and 3 Column slots (top); a card is active once every beast of one of its two linked lines is wounded or defeated.",
        "Place one of 4 dealt Territory cards; keep the other 3 in hand.",
      ],
    },
    {
      title: "Each round",
      items: [
        "Roll all dice (Physical P, Magic M).",
        "Place: everyone secretly chooses a hand card and an empty cell; choices are revealed together.",
        "Refill: take a face-up card (take 1–3) or the top of the deck.",
        "Hit, in snake order: take one die and hit a beast in your territory. A beast needing a Magic die can only be hit with one; Magic dice are wild. First hit wounds, the second defeats; a critical hit (die equals the printed number, or any hit with no number) defeats at once.",
        "A defeated beast's effect fires (extra hits, defeats, copies of dice…); choose its targets by clicking. One Item may be played per turn.",
      ],
    },
    {
      title: "Notation",
      items: [
        "S07>R1 scoring card to a slot · T12@B2 place a card (cells A1–C3) · take 2 / deck refill · P1>c4 take die P1 and hit space c4 (spaces a1–f6) · P2>- take a die without a hit · hit c4 / defeat c4 effect targets · item I07 · P2=5 · end.",
      ],
    },
  ],
};

export function rulesPanel(game: string): HTMLElement {
  const details = el("details", { class: "card rules", id: "rules" });
  details.append(el("summary", { text: "Rules" }));
  for (const section of RULES[game] ?? [{ title: "Rules", items: ["No rules summary for this game."] }]) {
    const list = el("ul");
    for (const item of section.items) list.append(el("li", { text: item }));
    details.append(el("h3", { text: section.title }), list);
  }
  return details;
}
