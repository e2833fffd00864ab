// The board's parts, shared by the mirror, the console and the hall view:
// the pieces' figures, a position read from its FEN, a clock's time, and
// the board drawn as SVG content.
const GLYPH = {K:"♔",Q:"♕",R:"♖",B:"♗",N:"♘",P:"♙",k:"♚",q:"♛",r:"♜",b:"♝",n:"♞",p:"♟"};
const LETTER = {"♔":"K","♕":"Q","♖":"R","♗":"B","♘":"N","♙":"P","♚":"k","♛":"q","♜":"r","♝":"b","♞":"n","♟":"p"};
const FILES = "abcdefgh";
function pieces(fen) {
  const out = {}; const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => { let f = 0; for (const c of row) {
    if (c >= "1" && c <= "8") f += +c; else { out[FILES[f] + (8 - i)] = c; f++; } } });
  return out;
}
function time(ms) {
  ms = Math.max(0, ms); const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
  const two = n => String(n).padStart(2, "0");
  return h > 0 ? h + ":" + two(m) + ":" + two(r) : m + ":" + two(r);
}
// The board's squares as SVG content (a 400 × 400 view box), seen from
// `s.orientation`'s side: `s.fen`, `s.last_move`, `s.touched` and
// `s.check` marked; `chosen` is a square the console's user has picked,
// `targets` the squares its piece can go to.
function boardSvg(s, chosen, targets) {
  const at = pieces(s.fen), flip = s.orientation === "black";
  const m = s.last_move, marks = new Set(m ? [m.from, m.to].concat(m.rook || []) : []);
  let html = "";
  for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) {
    const file = flip ? 7 - f : f, rank = flip ? r + 1 : 8 - r, sq = FILES[file] + rank;
    // a1 is dark: a square is dark when its file (a = 0) and rank (1 = 1)
    // add up to an odd number.
    const shade = (file + rank) % 2 === 1 ? "dark" : "light";
    const p = at[sq] || "", x = f * 50, y = r * 50;
    // Marks that do not rely on colour: the last move a solid frame, a
    // piece in the hand (or picked) a dashed one, a king in check four
    // corners, a square the picked piece can go to a dot; each in the
    // colour that stands out from both shades of this theme.
    const held = s.touched === sq || chosen === sq, target = !!targets && targets.has(sq);
    const marked = [];
    if (marks.has(sq)) marked.push("last");
    if (held) marked.push("held");
    if (s.check === sq) marked.push("check");
    if (target) marked.push("target");
    html += `<g data-square="${sq}" data-piece="${p}" data-shade="${shade}" data-mark="${marked.join(" ")}">` +
      `<rect x="${x}" y="${y}" width="50" height="50" fill="var(--${shade})"/>` +
      (marks.has(sq) ? `<rect class="mark last" x="${x+3}" y="${y+3}" width="44" height="44" fill="none" stroke="var(--frame)" stroke-width="4"/>` : "") +
      (held ? `<rect class="mark held" x="${x+5}" y="${y+5}" width="40" height="40" fill="none" stroke="var(--frame)" stroke-width="4" stroke-dasharray="6 4"/>` : "") +
      (s.check === sq ? [[0,0,1,1],[50,0,-1,1],[0,50,1,-1],[50,50,-1,-1]].map(([cx,cy,dx,dy]) =>
        `<path class="mark check" d="M${x+cx} ${y+cy} l${16*dx} 0 l${-16*dx} ${16*dy} z" fill="var(--frame)"/>`).join("") : "") +
      // Every piece is a solid figure with an outline: White's light with a
      // dark edge, Black's dark with a light edge, on any square.
      (p ? `<text class="piece ${p === p.toUpperCase() ? "white" : "black"}" x="${x+25}" y="${y+27}">${GLYPH[p.toLowerCase()]}</text>` : "") +
      (target ? `<circle class="mark target" cx="${x+25}" cy="${y+25}" r="7" fill="var(--frame)" stroke="var(--bg)" stroke-width="2"/>` : "") +
      // The coordinates on the board's edges, as seen from this side:
      // the files along the bottom row, the ranks down the left column.
      (r === 7 ? `<text class="coord" data-file="${FILES[file]}" x="${f*50+46}" y="${r*50+44}" fill="var(--on-${shade})">${FILES[file]}</text>` : "") +
      (f === 0 ? `<text class="coord" data-rank="${rank}" x="${f*50+4}" y="${r*50+10}" fill="var(--on-${shade})">${rank}</text>` : "") + `</g>`;
  }
  return html;
}
