// The parts the mirror and the console share: the board and the table of
// squares, the clocks and the event stream (the words, the theme and the
// stream's link are page.js's, the board's drawing and the clock's time
// board.js's, which the hall view shares too).
// received: the page's instant of the clock reading itself (the state's
// instant less how old the reading was then); lostAt: when the server was
// lost, after which no clock runs on.
let state = null, received = 0, lostAt = null;
const PIECE = Object.fromEntries(W.pieces || []);
function colorOf(p) { return p === p.toUpperCase() ? W.white : W.black; }
function nameOf(p) { return fill(D.piece, {piece: PIECE[p.toLowerCase()], color: colorOf(p)}); }
// The page's own words, as text: headings and buttons marked data-w.
document.querySelectorAll("[data-w]").forEach(el => { if (D[el.dataset.w]) el.textContent = D[el.dataset.w]; });
$("board").setAttribute("aria-label", D.board); $("squares").setAttribute("aria-label", D.board_table);
function at(s, square) { return pieces(s.fen)[square] || ""; }
// The board, seen from `s.orientation`'s side; `chosen` is a square the
// console's user has picked, `targets` the squares its piece can go to.
function drawBoard(s, chosen, targets) {
  const svg = $("board"), at = pieces(s.fen);
  svg.innerHTML = boardSvg(s, chosen, targets);
  // The words come from a language file: they go in as text, never as markup.
  const cell = (tag, text) => { const c = document.createElement(tag); c.textContent = text; return c; };
  const head = document.createElement("tr");
  head.append(cell("th", ""), ...[...FILES].map(c => cell("th", c)));
  const rows = [head];
  for (let rank = 8; rank >= 1; rank--) {
    const tr = document.createElement("tr");
    tr.append(cell("th", String(rank)), ...[...FILES].map(c => cell("td", at[c + rank] ? nameOf(at[c + rank]) : D.empty)));
    rows.push(tr);
  }
  $("squares").replaceChildren(...rows);
}
// Takes a new state in: its clock reading counts from its own instant,
// the state's `now` (a state read later than its last event) or its `t`.
function take(s) {
  state = s;
  received = performance.now() - (s.clock ? Math.max(0, (s.now ?? s.t) - s.clock.t) : 0);
}
// Whether `s` is no older than the state shown: the same server's run
// (`run`) and no fewer batches of events (`seq`), or another run.
function newer(s) {
  return !state || s.run !== state.run || s.seq >= state.seq;
}
function drawClocks() {
  const s = state; if (!s || !s.clock) return;
  const c = s.clock;
  for (const side of ["white", "black"]) {
    let ms = c[side + "_ms"];
    const now = lostAt === null ? performance.now() : lostAt;
    if (c.running === side && !c.paused) ms -= now - received;
    const el = $("clock-" + side);
    // The side's name small, its time large, on one line.
    const who = document.createElement("span"), at = document.createElement("span");
    who.textContent = W[side] + " "; at.className = "time"; at.textContent = time(ms);
    el.replaceChildren(who, at, c.paused ? ` (${D.paused})` : "");
    el.dataset.ms = Math.max(0, Math.round(ms));
    el.classList.toggle("running", c.running === side && !c.paused);
    el.classList.toggle("low", ms < 60000);
    el.classList.toggle("flag", c[side + "_flag"]);
  }
}
$("clock-white").textContent = W.white + " –"; $("clock-black").textContent = W.black + " –";
// The browser reconnects a stream that broke by itself or ended (a
// stream lives some minutes); one the server refused (too many viewers)
// is closed for good, so it is opened again here, waiting longer each
// time: 1 s, 2 s, 4 s … 30 s. Meanwhile the page shows the game as
// `/state` gives it, read at each try.
let wait = 1000;
const link = streamLink(brokeAt => { if (lostAt === null) lostAt = brokeAt; drawClocks(); });
function listen(render) {
  const source = new EventSource("/events");
  source.addEventListener("state", e => {
    wait = 1000; lostAt = null; link.found();
    const s = JSON.parse(e.data);
    take(s); render(s); drawClocks();
  });
  source.onerror = () => {
    // The clocks drawn as they stand when the stream breaks.
    if (!link.away()) drawClocks();
    link.gone(source.readyState === EventSource.CLOSED);
    if (source.readyState === EventSource.CLOSED) {
      fetch("/state", { cache: "no-store" })
        .then(r => r.ok ? r.json() : null)
        // Only while the stream is still away: one back meanwhile is newer.
        .then(s => {
          if (s && document.body.classList.contains("lost") && newer(s)) {
            take(s); render(s); lostAt = performance.now(); drawClocks();
          }
        })
        .catch(() => {});
      setTimeout(() => listen(render), wait);
      wait = Math.min(wait * 2, 30000);
    }
  };
}
setInterval(drawClocks, 100);
