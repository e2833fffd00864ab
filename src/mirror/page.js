// What every page shares (the mirror, the console and the hall view): its
// words, the theme and type-size buttons, and how it shows its link to
// the server's event stream.
function $(id) { return document.getElementById(id); }
const W = JSON.parse($("words").textContent), D = W.display || {};
function fill(template, values) { return String(template).replace(/\{(\w+)\}/g, (all, k) => k in values ? values[k] : all); }
// The theme shown now: the one chosen, else the system's.
function isDark() {
  const b = document.body.classList;
  return b.contains("dark") || (!b.contains("light") && matchMedia("(prefers-color-scheme: dark)").matches);
}
$("dark").setAttribute("aria-pressed", String(isDark()));
$("dark").onclick = () => {
  const dark = !isDark();
  document.body.classList.toggle("dark", dark); document.body.classList.toggle("light", !dark);
  $("dark").setAttribute("aria-pressed", String(dark));
};
$("large").onclick = () => $("large").setAttribute("aria-pressed", String(document.documentElement.classList.toggle("large")));
// The link to the server's stream. The server ends each stream after some
// minutes and the browser opens it again within a second: that is no
// loss. A stream refused, or none back within three seconds, is: the page
// says so, and `onLost(brokeAt)` gets the instant it broke, from which
// the page's clocks stand.
function streamLink(onLost) {
  let broke = null, grace = null;
  const lose = () => {
    if (broke === null) return;
    document.body.classList.add("lost");
    if ($("link").textContent !== D.reconnecting) $("link").textContent = D.reconnecting;
    onLost(broke);
  };
  return {
    // A message came: the link is whole again.
    found() {
      broke = null; clearTimeout(grace); grace = null;
      document.body.classList.remove("lost");
      if ($("link").textContent) $("link").textContent = "";
    },
    // The stream broke; `refused`: the browser will not open it again.
    gone(refused) {
      if (broke === null) broke = performance.now();
      if (refused) { clearTimeout(grace); grace = null; lose(); }
      else if (grace === null) grace = setTimeout(() => { grace = null; lose(); }, 3000);
    },
    // Whether the stream is away now.
    away() { return broke !== null; },
  };
}
