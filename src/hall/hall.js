// The arbiter's hall view: every board of the round as a tile (its board
// drawn as the mirror draws it, both clocks, the last move, the result),
// and first, what needs the arbiter. The hub sends the whole view on every
// change and each second; the clocks and the times run on in the page.
const H = W.hall || {};
const side = c => c === "white" ? W.white : W.black;
let view = null, received = 0, lostAt = null, said = new Set();
document.title = H.title; $("title").textContent = H.title; $("h-needs").textContent = H.needs;
$("dark").textContent = D.dark; $("large").textContent = D.large; $("round-pgn").textContent = H.round_pgn;
// The page's time since the view came (stopped while the hub is lost).
function since() { return (lostAt === null ? performance.now() : lostAt) - received; }
// A need that concerns one side names its colour and, where it is known,
// the player, as the tile's clocks do.
function needText(n, extra, b) {
  const ms = v => time((v || 0) + extra);
  const who = c => side(c) + (b && b[c] ? " (" + b[c] + ")" : "");
  switch (n.kind) {
    case "called": return fill(H.called, {for: ms(n.for_ms)});
    case "flag": return fill(H.flag, {color: who(n.color)});
    case "lost": return fill(H.lost, {for: ms(n.for_ms)});
    case "sensors_lost": return fill(H.sensors_lost, {for: ms(n.for_ms)});
    case "differing": return fill(H.differing, {for: ms(n.for_ms), squares: (n.squares || []).join(" ")});
    case "illegal": return fill(H.illegal, {color: who(n.color), count: n.count});
    case "touch": return fill(H.touch, {color: who(n.color)});
    case "unnamed": return fill(H.unnamed, {colors: (n.colors || []).map(side).join(", ")});
    default: return n.kind;
  }
}
function players(b) { return (b.white || "?") + " – " + (b.black || "?"); }
// A list brought up to date in place: each item kept by its key, its
// words changed only where they changed, the order touched only when it
// changed. The view comes every second; a screen reader reading the list
// keeps its place.
function syncList(ul, items) {
  const had = new Map([...ul.children].map(li => [li.dataset.key, li]));
  const lis = items.map(({key, text}) => {
    let li = had.get(key);
    if (!li) { li = document.createElement("li"); li.dataset.key = key; }
    if (li.textContent !== text) li.textContent = text;
    return li;
  });
  const same = lis.length === ul.children.length && lis.every((li, i) => ul.children[i] === li);
  if (!same) ul.replaceChildren(...lis);
}
function tile(b) {
  let t = $("board-" + b.number);
  if (!t) {
    t = document.createElement("article");
    t.className = "tile"; t.id = "board-" + b.number; t.setAttribute("aria-labelledby", "board-" + b.number + "-h");
    t.innerHTML = `<svg viewBox="0 0 400 400" role="img"></svg><div>` +
      `<h2 id="board-${b.number}-h"><span class="name"></span><span class="result"></span></h2>` +
      `<div class="clock" data-side="white"></div><div class="clock" data-side="black"></div>` +
      `<p class="last-move"></p><ul class="marks"></ul></div>`;
    $("boards").append(t);
  }
  return t;
}
function render(v) {
  $("round").textContent = v.round ? fill(H.round, {round: v.round}) : "";
  $("delay").textContent = v.delay_s ? fill(H.delayed, {minutes: Math.round(v.delay_s / 60 * 10) / 10}) : "";
  const p = v.push;
  $("push").textContent = !p ? "" : p.trouble ? fill(H.push_trouble, {trouble: p.trouble}) : fill(H.pushed, {count: p.pushed});
  const keyOf = n => [n.board, n.kind, n.color || "", n.what || ""].join(":");
  const items = v.needs.map(n => {
    const b = v.boards.find(b => b.number === n.board) || {};
    return {key: keyOf(n), text: fill(H.board, {number: n.board}) + " (" + players(b) + "): " + needText(n, since(), b)};
  });
  if (!items.length) items.push({key: "none", text: H.nothing_needed});
  syncList($("needs"), items);
  // A screen reader hears a need once, when it comes, not the list again
  // at each second's update.
  const fresh = v.needs.filter(n => !said.has(keyOf(n)));
  said = new Set(v.needs.map(keyOf));
  if (fresh.length) {
    $("needs-said").textContent = fresh.map(n => fill(H.board, {number: n.board}) + ": " +
      needText(n, 0, v.boards.find(b => b.number === n.board))).join(". ");
  }
  for (const b of v.boards) {
    const t = tile(b);
    t.querySelector(".name").textContent = fill(H.board, {number: b.number});
    t.querySelector(".result").textContent = b.result || "";
    const svg = t.querySelector("svg");
    const label = fill(H.board, {number: b.number}) + ": " + players(b);
    if (svg.getAttribute("aria-label") !== label) svg.setAttribute("aria-label", label);
    // The board drawn again only when its position changed.
    const drawn = JSON.stringify([b.fen, b.last_move && b.last_move.uci, b.check]);
    if (svg.dataset.drawn !== drawn) {
      svg.dataset.drawn = drawn;
      svg.innerHTML = b.fen ? boardSvg({fen: b.fen, orientation: "white", last_move: b.last_move, check: b.check}) : "";
    }
    const m = b.last_move;
    // The move's number from the position after it (a game set up with
    // Black to move counts from its own number): Black's move raised it.
    const full = b.fen ? +b.fen.split(" ")[5] || 1 : 1;
    const number = m && m.color === "black" ? full - 1 : full;
    const last = m ? number + (m.color === "white" ? ". " : "… ") + m.figurine : H.no_move;
    const p = t.querySelector(".last-move");
    if (p.textContent !== last) p.textContent = last;
    t.classList.toggle("needs", b.needs.length > 0);
    t.classList.toggle("lost", b.presence !== "followed");
    syncList(t.querySelector(".marks"), b.needs.map(n => ({key: keyOf(n), text: needText(n, since(), b)})));
  }
}
function drawClocks() {
  if (!view) return;
  for (const b of view.boards) {
    const t = $("board-" + b.number); if (!t) continue;
    for (const el of t.querySelectorAll(".clock")) {
      const s = el.dataset.side, c = b.clock;
      if (!c) { const none = (b[s] || side(s)) + " –"; if (el.textContent !== none) el.textContent = none; continue; }
      let ms = c[s + "_ms"];
      // The side to move's time runs from its reading; a board the hub
      // lost stands at the time it was lost (the hub's age of the reading
      // then), its clock not shown running.
      const lost = b.presence !== "followed";
      const counting = c.running === s && !c.paused && !b.result;
      const running = counting && !lost;
      if (counting) ms -= b.clock_age + (lost ? 0 : since());
      // The player's name where it is known, else his colour; the time;
      // and, in words for a screen reader, the side to move (the running
      // clock is shown inverted). Each part written in place.
      if (!el.querySelector(".time")) {
        el.innerHTML = '<span class="who"></span><span class="unseen"></span><span class="time"></span>';
      }
      const put = (sel, text) => { const e = el.querySelector(sel); if (e.textContent !== text) e.textContent = text; };
      put(".who", b[s] || side(s));
      put(".unseen", counting ? " " + H.to_move + " " : "");
      put(".time", time(ms));
      el.classList.toggle("running", running);
      el.classList.toggle("flag", !!c[s + "_flag"]);
      el.dataset.ms = Math.max(0, Math.round(ms));
    }
  }
}
function take(v) { view = v; received = performance.now(); lostAt = null; render(v); drawClocks(); }
// The hub lost: the clocks stand from the moment it went.
const link = streamLink(brokeAt => { if (lostAt === null) lostAt = brokeAt; });
// The stream: a broken one the browser opens again itself; one refused is
// opened again here, later each time (1 s … 30 s), the view read from
// `/state` meanwhile.
let wait = 1000;
function listen() {
  const source = new EventSource("/events");
  source.addEventListener("state", e => {
    wait = 1000; link.found();
    take(JSON.parse(e.data));
  });
  source.onerror = () => {
    link.gone(source.readyState === EventSource.CLOSED);
    if (source.readyState === EventSource.CLOSED) {
      fetch("/state", { cache: "no-store" }).then(r => r.ok ? r.json() : null)
        .then(v => { if (v && v.boards && link.away()) { take(v); lostAt = performance.now(); } })
        .catch(() => {});
      setTimeout(listen, wait); wait = Math.min(wait * 2, 30000);
    }
  };
}
listen();
setInterval(drawClocks, 200);
