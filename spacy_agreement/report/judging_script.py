"""The judging page's style and script (:mod:`.judging_page` says what the page does): the script
writes every string from the data as text (``textContent``) and computes the same per-judge order
as :func:`~.judging_page.judge_order`."""

STYLE = """
body{font-family:Arial,Helvetica,sans-serif;margin:1em auto;padding:0 1em;color:#222;max-width:1400px}
h1{font-size:1.4em;margin:.2em 0} .note{color:#555;font-size:.92em} kbd{border:1px solid #bbb;border-radius:3px;
padding:0 .3em;font-size:.85em;background:#f6f6f6}
#progress{color:#444;margin:.2em 0 .6em 0} .sentence{font-size:1.1em;margin:.4em 0 .8em 0;line-height:1.4}
.analyses{display:grid;grid-template-columns:minmax(0,1fr);gap:.8em}
.analyses.side-by-side{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}
@media (max-width:760px){.analyses.side-by-side{grid-template-columns:minmax(0,1fr)}}
figure.analysis{margin:0;border:2px solid #ddd;border-radius:6px;padding:.3em .6em;min-width:0;cursor:pointer}
figure.analysis .picture{overflow-x:auto;overflow-y:hidden}
figure.analysis .picture svg{display:block}
figure.gold{cursor:default}
figure.analysis figcaption{font-weight:bold;color:#333;margin-bottom:.2em}
figure.analysis.chosen{border-color:#1f5fbf;background:#f3f7ff}
figure.analysis:not(.gold):hover{border-color:#7fa3d9}
.choices{display:flex;flex-wrap:wrap;gap:.6em;margin:1em 0 .6em 0}
button{font-size:1em;padding:.45em .9em;border-radius:5px;border:1px solid #999;background:#fafafa;cursor:pointer}
.choices button[aria-pressed=true]{background:#1f5fbf;color:#fff;border-color:#1f5fbf}
.choices button[aria-pressed=true] kbd{color:#222} figure.gold{margin-top:.8em}
.toolbar{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.3em 0}
.toolbar button{padding:.2em .6em}
.legend{font-size:.9em;color:#444;margin:.4em 0} .legend .red{color:#d62728;font-weight:bold}
.legend .grey{color:#8c8c8c}
#comment{width:100%;max-width:60em;font:inherit;box-sizing:border-box}
#judge{font-size:1em;padding:.35em}
#help{position:fixed;inset:10% 10% auto 10%;background:#fff;border:2px solid #1f5fbf;border-radius:8px;padding:1em;
box-shadow:0 4px 24px rgba(0,0,0,.25);z-index:10;max-height:80vh;overflow:auto}
.error{color:#b00020}
"""

# The page's script: small on purpose; every string from the data is written with textContent.
SCRIPT = r"""
"use strict";
const $ = (id) => document.getElementById(id);
const PAGE = document.body.dataset.page;
const TIES = document.body.dataset.ties === "yes";
const SHUFFLE = document.body.dataset.shuffle === "yes";
const ZOOMS = [1.1, 1.25, 1.5, 1.75, 2, 2.5];
let data = null, judge = null, state = null, order = [], position = 0, history = [], shownAt = 0;
let zoom = 1.25, syncing = false;

// A judge is one judge whatever the case and the spaces around the name.
function norm(name) { return name.trim().toLowerCase(); }

// FNV-1a over the UTF-16 code units, mixed as MurmurHash3's finaliser (judge_order in Python).
function hash32(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16;
  return h >>> 0;
}

// The items' order for this judge: Fisher-Yates driven by mulberry32 seeded with hash32(page + judge).
function judgeOrder(name, n) {
  const out = Array.from({length: n}, (_, k) => k);
  if (!SHUFFLE) return out;
  let a = hash32(PAGE + "\n" + norm(name));
  const next = () => {
    a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  for (let i = n - 1; i > 0; i--) { const j = next() % (i + 1); const x = out[i]; out[i] = out[j]; out[j] = x; }
  return out;
}

const storage = {
  key: (name) => "spacy-agreement-judging/" + PAGE + "/" + name,
  get(name) { try { return JSON.parse(localStorage.getItem(this.key(name))); } catch (e) { return null; } },
  set(name, value) { try { localStorage.setItem(this.key(name), JSON.stringify(value)); return true; } catch (e) { return false; } },
};

// Two tabs of one judge: every answer and comment carries its time; the later one wins.
function merge(into, other) {
  if (!other) return into;
  for (const part of ["answers", "comments"]) {
    for (const [id, value] of Object.entries(other[part] || {})) {
      const mine = into[part][id];
      if (!mine || (value.at || 0) > (mine.at || 0)) into[part][id] = value;
    }
  }
  return into;
}

async function loadData() {
  const bytes = Uint8Array.from(atob($("judging-data").textContent.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function stateKey() { return "judge:" + norm(judge); }

function save() {
  state = merge(state, storage.get(stateKey()));
  if (!storage.set(stateKey(), state)) $("start-note").textContent = "This browser keeps nothing: export before you close the page.";
  storage.set("last-judge", judge);
}

const answered = (item) => { const a = state.answers[item.id]; return !!(a && a.choice); };

function firstOpen(from) {
  const n = order.length;
  for (let k = from; k < n; k++) if (!answered(data.items[order[k]])) return k;
  for (let k = 0; k < Math.min(from, n); k++) if (!answered(data.items[order[k]])) return k;
  return n;
}

function start(name) {
  name = (name || "").trim();
  if (!name || !data) { $("judge").focus(); return; }
  judge = name;
  state = merge({answers: {}, comments: {}}, storage.get(stateKey()));
  order = judgeOrder(judge, data.items.length);
  history = [];
  position = firstOpen(0);
  if (document.activeElement && document.activeElement.blur) document.activeElement.blur();  // the name field: keys judge now
  $("start").hidden = true;
  $("judge-name").textContent = judge;
  document.querySelectorAll(".started").forEach((el) => { el.hidden = false; });
  save();
  show();
}

function counts() {
  let judged = 0, skipped = 0;
  for (const item of data.items) {
    const a = state.answers[item.id];
    if (a && a.choice === "skip") skipped++; else if (a && a.choice) judged++;
  }
  return [judged, skipped];
}

function progress() {
  const n = data.items.length, [judged, skipped] = counts(), done = position >= n;
  $("progress").textContent = (done ? "All " + n + " items" : "Item " + (position + 1) + " of " + n) + " \u00b7 " +
    judged + " judged" + (skipped ? " \u00b7 " + skipped + " skipped" : "");
}

function applyZoom() {
  document.querySelectorAll(".picture svg").forEach((svg) => {
    svg.style.width = (Number(svg.dataset.width) * zoom) + "px";
    svg.style.height = (Number(svg.dataset.height) * zoom) + "px";
    svg.style.maxWidth = "none";
    svg.style.minWidth = "0";
  });
  $("zoom-level").textContent = Math.round(zoom * 100) + "%";
}

function show() {
  const n = data.items.length, done = position >= n;
  $("judging").hidden = done;
  $("done").hidden = !done;
  progress();
  if (done) { $("export-done").focus(); return; }
  const item = data.items[order[position]];
  $("judging").dataset.item = item.id;
  $("sentence").textContent = item.text;
  for (const slot of ["1", "2"]) {
    const box = document.querySelector('[data-analysis="' + slot + '"] .picture');
    box.innerHTML = item.pictures[slot];
    box.scrollLeft = 0;
  }
  $("gold").hidden = !item.pictures.gold;
  $("gold").querySelector(".picture").innerHTML = item.pictures.gold || "";
  applyZoom();
  const answer = state.answers[item.id], pressed = answer && answer.choice ? answer.choice : null;
  document.querySelectorAll("[data-choice]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.choice === pressed)));
  document.querySelectorAll("[data-analysis]").forEach((f) => f.classList.toggle("chosen", f.dataset.analysis === pressed));
  const comment = state.comments[item.id];
  $("comment").value = comment ? comment.text : "";
  shownAt = performance.now();
}

function unfocusButtons() {
  const active = document.activeElement;
  if (active && active.matches && active.matches("button, figure")) active.blur();
}

function choose(choice) {  // "1", "2", "tie" or "skip"
  unfocusButtons();
  if (!judge || position >= data.items.length || (choice === "tie" && !TIES)) return;
  const item = data.items[order[position]], before = state.answers[item.id];
  const ms = ((before && before.ms) || 0) + Math.round(performance.now() - shownAt);
  state.answers[item.id] = {choice: choice, ms: ms, at: Date.now()};
  history.push(position);
  position = firstOpen(position + 1);
  save();
  show();
}

function undo() {
  unfocusButtons();
  if (!judge) return;
  let k = history.length ? history.pop() : position - 1;
  if (k < 0) return;
  const item = data.items[order[k]], before = state.answers[item.id];
  state.answers[item.id] = {choice: null, ms: (before && before.ms) || 0, at: Date.now()};
  position = k;
  save();
  show();
}

function exportText() {
  state = merge(state, storage.get(stateKey()));  // what another tab answered too
  const lines = [JSON.stringify({spacy_agreement_judgments: "0.4", page: PAGE, judge: judge,
                                 exported: new Date().toISOString()})];
  for (const item of data.items) {
    const answer = state.answers[item.id];
    if (!answer || !answer.choice) continue;
    const comment = state.comments[item.id];
    lines.push(JSON.stringify({page: PAGE, item: item.id, judge: judge, choice: answer.choice,
                               comment: comment ? comment.text.trim() : "", ms: answer.ms || 0}));
  }
  return lines.join("\n") + "\n";
}

function download() {
  unfocusButtons();
  const blob = new Blob([exportText()], {type: "application/x-ndjson"});
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "judgments-" + judge.replace(/[^\p{L}\p{N}._-]+/gu, "_") + ".jsonl";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function toggleHelp(open) {
  unfocusButtons();
  $("help").hidden = open === undefined ? !$("help").hidden : !open;
}

function setZoom(step) {
  unfocusButtons();
  const k = ZOOMS.indexOf(zoom);
  zoom = ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (k < 0 ? 1 : k) + step))];
  try { localStorage.setItem("spacy-agreement-judging/zoom", String(zoom)); } catch (e) { /* nothing kept */ }
  applyZoom();
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.matches && event.target.matches("input, textarea")) {
    if (event.key === "Escape") event.target.blur();
    return;
  }
  if (event.key === "?") { toggleHelp(); event.preventDefault(); return; }
  if (event.key === "Escape" && !$("help").hidden) { toggleHelp(false); event.preventDefault(); return; }
  if (!judge) return;
  const action = {"1": "1", "ArrowLeft": "1", "2": "2", "ArrowRight": "2", "0": "tie", "=": "tie",
                  "s": "skip", "S": "skip"}[event.key];
  if (action) choose(action);
  else if (event.key === "Backspace" || event.key === "u" || event.key === "U") undo();
  else return;
  event.preventDefault();
});

// a button never keeps the focus after a click (Space or Enter would press it again, unseen)
document.querySelectorAll("button").forEach((b) => b.addEventListener("mousedown", (event) => event.preventDefault()));
$("start-button").addEventListener("click", () => start($("judge").value));
$("continue-button").addEventListener("click", () => start($("continue-button").dataset.judge));
$("judge").addEventListener("keydown", (event) => { if (event.key === "Enter") start($("judge").value); });
document.querySelectorAll("[data-choice]").forEach((b) => b.addEventListener("click", () => choose(b.dataset.choice)));
document.querySelectorAll("figure[data-analysis]").forEach((f) => f.addEventListener("click", (event) => {
  // a click on the box's own scroll bar (the box itself, not the picture in it) scrolls, it does not choose
  const box = event.target;
  if (box.classList && box.classList.contains("picture") && event.offsetY >= box.clientHeight) return;
  if (window.getSelection && String(window.getSelection()).length) return;  // selecting a word to copy it
  choose(f.dataset.analysis);
}));
document.querySelectorAll(".undo").forEach((b) => b.addEventListener("click", undo));
document.querySelectorAll(".export").forEach((b) => b.addEventListener("click", download));
document.querySelectorAll(".help-button").forEach((b) => b.addEventListener("click", () => toggleHelp()));
$("help-close").addEventListener("click", () => toggleHelp(false));
$("zoom-in").addEventListener("click", () => setZoom(1));
$("zoom-out").addEventListener("click", () => setZoom(-1));
document.querySelectorAll(".picture").forEach((box) => box.addEventListener("scroll", () => {
  if (syncing) return;
  syncing = true;
  document.querySelectorAll(".picture").forEach((other) => { if (other !== box) other.scrollLeft = box.scrollLeft; });
  syncing = false;
}));
$("comment").addEventListener("input", () => {
  const item = data.items[order[position]];
  if (item) { state.comments[item.id] = {text: $("comment").value, at: Date.now()}; save(); }
});
window.addEventListener("storage", (event) => {  // another tab of this judge answered: merged at once
  if (judge && event.key === storage.key(stateKey()) && event.newValue) {
    try { merge(state, JSON.parse(event.newValue)); } catch (e) { return; }
    const item = data.items[order[position]];
    if (item && answered(item)) { position = firstOpen(position); show(); }  // answered in the other tab
    else progress();
  }
});

(typeof DecompressionStream === "function" ? loadData() : Promise.reject(new Error("no DecompressionStream")))
  .then((loaded) => {
    data = loaded;
    const stored = Number(localStorage.getItem("spacy-agreement-judging/zoom"));
    if (ZOOMS.includes(stored)) zoom = stored;
    const last = storage.get("last-judge");
    if (typeof last === "string" && last.trim()) {
      $("continue-button").dataset.judge = last;
      $("continue-button").textContent = "Continue as " + last;
      $("continue-button").hidden = false;
    }
    $("start-button").disabled = false;
    document.body.dataset.ready = "yes";
  })
  .catch((error) => {
    $("start-note").textContent = "This browser cannot open the page (" + error.message + "): use a current Firefox, Chrome, Edge or Safari.";
    $("start-note").classList.add("error");
  });
"""


__all__ = ["SCRIPT", "STYLE"]
