// deckpress preview: shows the decks the server sends, live, over one event stream.
// Deck text is untrusted: it only ever reaches the page through textContent and attributes.
"use strict";

const SPOTS_SHOWN = 24; // copies listed in the detail view; the rest are counted
const CARDS_SHOWN = 30; // cards listed under a face many cards share

const state = {
  decks: new Map(),          // deck id -> the deck as the server last sent it
  current: null,             // id of the deck on screen
  chosen: false,             // the designer picked a deck tab (the address no longer decides)
  side: "all",
  filter: "",
  changedOnly: false,        // show only the faces marked as changed since the revision
  detail: null,              // key of the face open in the detail view
  renderedDeck: null,
  tiles: new Map(),          // face key -> tile element, for the deck on screen
};

const $ = (id) => document.getElementById(id);

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "true" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const copies = (n) => `${n} ${n === 1 ? "copy" : "copies"}`;
const more = (count) => el("li", { class: "note", text: `and ${count} more` });

// Shows a face's image in ``img`` (a placeholder for one that cannot be laid out); true when
// it replaced another image.
function showImage(img, face) {
  const source = face.image || "/static/unfit.svg";
  const replaced = img.hasAttribute("src") && img.getAttribute("src") !== source;
  if (img.getAttribute("src") !== source) img.setAttribute("src", source);
  img.alt = face.title || `${face.cards[0]} (${face.side})`;
  img.classList.toggle("unfit", !face.image);
  return replaced;
}

// The grid scrolled to a face, open in the detail view.
function showFace(key) {
  const tile = state.tiles.get(key);
  if (tile) tile.scrollIntoView({ block: "center", behavior: "smooth" });
  openDetail(key, true);
}

// --- live connection ---------------------------------------------------------------------

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("open", () => setStatus("live", "Live"));
  source.addEventListener("error", () => setStatus("lost", "Reconnecting…"));
  source.addEventListener("deck", (event) => receive(JSON.parse(event.data)));
}

let statusTimer = null;
function setStatus(kind, label) {
  const status = $("status");
  status.className = `status ${kind}`;
  status.querySelector(".label").textContent = label;
}

function receive(deck) {
  const first = state.decks.size === 0;
  const known = state.decks.has(deck.id);
  state.decks.set(deck.id, deck);
  const wanted = new URLSearchParams(location.hash.slice(1)).get("deck");
  if (!state.chosen && deck.id === wanted) state.current = deck.id;
  if (!state.current) state.current = deck.id;
  renderTabs();
  if (deck.id === state.current) render();
  if (known && !first) {
    const time = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    setStatus("updated", `Updated ${time}`);
    clearTimeout(statusTimer);
    statusTimer = setTimeout(() => setStatus("live", `Live · updated ${time}`), 1200);
  }
}

// --- deck tabs ---------------------------------------------------------------------------

function renderTabs() {
  const nav = $("decks");
  nav.replaceChildren();
  for (const deck of state.decks.values()) {
    const tab = el("button", { type: "button", role: "tab", "aria-selected": deck.id === state.current,
                               "data-deck": deck.id, text: deck.name });
    if (deck.errors) tab.append(el("span", { class: "pill error", text: deck.errors }));
    else if (deck.warnings) tab.append(el("span", { class: "pill warning", text: deck.warnings }));
    tab.addEventListener("click", () => {
      state.current = deck.id;
      state.chosen = true;
      history.replaceState(null, "", `#deck=${encodeURIComponent(deck.id)}`);
      closeDetail();
      renderTabs();
      render();
    });
    nav.append(tab);
  }
}

// --- the deck on screen ------------------------------------------------------------------

function currentDeck() {
  return state.decks.get(state.current);
}

function render() {
  const deck = currentDeck();
  if (!deck) return;
  document.title = `${deck.name} · deckpress preview`;
  $("deck-name").textContent = deck.name;
  const parts = [];
  if (deck.cards_total !== undefined) parts.push(`${deck.cards_total} cards`, `${deck.distinct} distinct faces`);
  if (deck.card) parts.push(`${mm(deck.card.width)} × ${mm(deck.card.height)} mm`);
  parts.push(deck.path);
  $("deck-meta").textContent = parts.join("  ·  ");
  if (deck.card) {
    const root = document.documentElement.style;
    root.setProperty("--card-ratio", `${deck.card.width} / ${deck.card.height}`);
    root.setProperty("--bleed-ratio", deck.card.bleed / deck.card.width);
    root.setProperty("--img-scale", (deck.card.width + 2 * deck.card.bleed) / deck.card.width);
  }
  renderDownloads(deck);
  renderGrid(deck);
  renderProblems(deck);
  renderSince(deck);
  renderStats(deck);
  applyFilter();
  if (state.detail) openDetail(state.detail, false);
}

function mm(points) {
  return (points / 72 * 25.4).toFixed(1).replace(/\.0$/, "");
}

function renderDownloads(deck) {
  const why = deck.stale ? "The deck's files are broken: fix them to download."
    : deck.errors ? "Fix the problems listed to download." : "";
  for (const kind of ["print", "rules", "booklet"]) {
    const link = $(`download-${kind}`);
    const href = deck.downloads && deck.downloads[kind];
    if (href) {
      link.href = href;
      link.removeAttribute("aria-disabled");
      link.title = { print: "Print sheets, as deckpress build makes them",
                     rules: "The rules, pages in reading order",
                     booklet: "The rules as a booklet: print double-sided, fold, staple" }[kind];
    } else {
      link.removeAttribute("href");
      link.setAttribute("aria-disabled", "true");
      link.title = why || "This deck has no rules.md";
    }
  }
}

function problemsByFace(deck) {
  // face key -> "error" or "warning", for the faces problems point at
  const marks = new Map();
  for (const problem of deck.problems) {
    const face = problem.accepted ? null : faceForProblem(deck, problem);
    if (!face) continue;
    if (problem.severity === "error" || !marks.has(face.key)) marks.set(face.key, problem.severity);
  }
  return marks;
}

function faceForProblem(deck, problem) {
  if (!problem.card) return null;
  const side = problem.side || "front";
  return deck.faces.find((face) => face.side === side && face.cards.includes(problem.card))
    || deck.faces.find((face) => face.cards.includes(problem.card)) || null;
}

function renderGrid(deck) {
  const grid = $("grid");
  if (state.renderedDeck !== deck.id) {
    grid.replaceChildren();
    state.tiles = new Map();
    state.renderedDeck = deck.id;
  }
  grid.classList.toggle("stale", deck.stale);
  grid.dataset.version = deck.version;
  $("stale").hidden = !deck.stale;
  if (deck.stale) {
    const first = deck.problems.find((problem) => problem.severity === "error");
    $("stale-reason").textContent = first ? `${first.where}: ${first.message}` : "";
  }
  const marks = problemsByFace(deck);
  const seen = new Set();
  const ordered = [];
  for (const face of deck.faces) {
    seen.add(face.key);
    let tile = state.tiles.get(face.key);
    if (!tile) {
      tile = makeTile(face);
      state.tiles.set(face.key, tile);
    }
    updateTile(tile, face, marks.get(face.key));
    ordered.push(tile);
  }
  for (const [key, tile] of state.tiles) {
    if (!seen.has(key)) { tile.remove(); state.tiles.delete(key); }
  }
  ordered.forEach((tile, index) => {
    if (grid.children[index] !== tile) grid.insertBefore(tile, grid.children[index] || null);
  });
}

function makeTile(face) {
  const img = el("img", { loading: "lazy", decoding: "async" });
  const tile = el("figure", { class: "tile", tabindex: 0, "data-key": face.key },
    el("div", { class: "face" }, img),
    el("span", { class: "badge" }),
    el("figcaption", {}, el("span", { class: "name" }), el("span", { class: "sub" })));
  tile.addEventListener("click", () => openDetail(tile.dataset.key, true));
  tile.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); openDetail(tile.dataset.key, true); }
  });
  return tile;
}

function updateTile(tile, face, mark) {
  if (showImage(tile.querySelector("img"), face)) flash(tile);
  tile.dataset.side = face.side;
  tile._face = face;
  const badge = tile.querySelector(".badge");
  badge.textContent = `×${face.copies}`;
  badge.title = `${copies(face.copies)} printed`;
  badge.classList.toggle("zero", face.copies === 0);
  tile.querySelector(".name").textContent = face.title || "(untitled)";
  const sub = tile.querySelector(".sub");
  sub.replaceChildren(el("span", { class: "side-tag", text: face.side }),
    face.card_count > 1 ? `${face.shared ? "shared by" : "on"} ${face.card_count} cards` : face.cards[0]);
  tile.classList.toggle("problem", Boolean(face.problem) || mark === "error");
  tile.classList.toggle("warning", !face.problem && mark === "warning");
  let flag = tile.querySelector(".flag");
  const flagged = face.problem || mark;
  if (flagged && !flag) {
    flag = el("span", { class: "flag", text: "!" });
    tile.append(flag);
  } else if (!flagged && flag) {
    flag.remove();
  }
  if (flag) flag.classList.toggle("warning", !face.problem && mark === "warning");
  updateSinceMark(tile, face.since);
}

// A face that changed since the revision: an outline in the mark's colour, a tag on the
// card and its reasons under the title.
function updateSinceMark(tile, since) {
  tile.classList.remove("since", "since-new", "since-changed", "since-count");
  let tag = tile.querySelector(".since-tag");
  let reason = tile.querySelector(".reason");
  if (!since) {
    if (tag) tag.remove();
    if (reason) reason.remove();
    delete tile.dataset.since;
    return;
  }
  tile.classList.add("since", `since-${since.kind}`);
  tile.dataset.since = since.kind;
  if (!tag) {
    tag = el("span", { class: "since-tag" });
    tile.querySelector(".face").append(tag);
  }
  tag.textContent = since.kind;
  if (!reason) {
    reason = el("span", { class: "reason" });
    tile.querySelector("figcaption").append(reason);
  }
  reason.textContent = since.reasons.join(" · ");
  reason.title = since.reasons.join("\n");
}

function flash(tile) {
  tile.classList.remove("changed");
  void tile.offsetWidth; // restart the animation
  tile.classList.add("changed");
}

// --- problems ----------------------------------------------------------------------------

function renderProblems(deck) {
  const list = $("problems");
  list.replaceChildren();
  const count = $("problem-count");
  if (deck.errors) { count.className = "pill error"; count.textContent = plural(deck.errors, "error"); }
  else if (deck.warnings) { count.className = "pill warning"; count.textContent = plural(deck.warnings, "warning"); }
  else {
    const accepted = deck.problems.filter((problem) => problem.accepted).length;
    count.className = "pill ok";
    count.textContent = accepted ? `${accepted} accepted` : "none";
  }
  const warnings = $("warning-count");
  warnings.hidden = !(deck.errors && deck.warnings);
  warnings.textContent = plural(deck.warnings, "warning");
  $("no-problems").hidden = deck.problems.length > 0;
  for (const problem of deck.problems) {
    const item = el("li", { class: `${problem.severity}${problem.accepted ? " accepted" : ""}` },
      el("span", { class: "where", text: problem.where }),
      el("span", { class: "severity", text: problem.severity }), " ",
      problem.message);
    if (problem.accepted) item.append(el("span", { class: "note", text: ` (accepted: ${problem.accepted})` }));
    const face = faceForProblem(deck, problem);
    if (face) {
      const link = el("button", { type: "button", class: "card-link",
                                  text: `Show ${face.title || problem.card} (${face.side})` });
      link.addEventListener("click", () => showFace(face.key));
      item.append(el("br"), link);
    }
    list.append(item);
  }
}

// --- changed since a revision ---------------------------------------------------------

function renderSince(deck) {
  const panel = $("since-panel");
  const toggle = $("changed-only");
  const since = deck.since;
  panel.hidden = !since;
  toggle.hidden = !since;
  toggle.parentElement.classList.toggle("with-since", Boolean(since));
  if (!since) return;
  $("since-revision").textContent = since.revision;
  $("since-count").textContent = plural(since.faces, "face");
  toggle.querySelector(".pill").textContent = String(since.faces);
  const parts = [`${plural(since.changed_total, "card")} new or changed`, `${since.removed_total} removed`];
  if (since.version) parts.push(`version then ${since.version}`);
  $("since-summary").textContent = since.changed_total || since.removed_total ? parts.join(" · ")
    : `Nothing prints differently since ${since.revision}.`;
  $("since-problem").hidden = !since.problem;
  $("since-problem").textContent = since.problem ? `Cannot compare now: ${since.problem}` : "";
  const changed = $("since-changed");
  changed.replaceChildren();
  for (const entry of since.changed) {
    const face = deck.faces.find((candidate) => candidate.since && candidate.cards.includes(entry.card));
    const name = el("button", { type: "button", class: "card-link", text: entry.title || entry.card,
                                disabled: !face });
    if (face) name.addEventListener("click", () => showFace(face.key));
    changed.append(el("li", { class: `since-${entry.status === "added" ? "new" : "changed"}` }, name,
      el("span", { class: "what", text: entry.what })));
  }
  const unlisted = since.changed_total - since.changed.length;
  if (unlisted > 0) changed.append(more(unlisted));
  const removed = $("since-removed");
  removed.replaceChildren();
  $("since-removed-title").hidden = since.removed_total === 0;
  for (const entry of since.removed) {
    removed.append(el("li", {}, el("strong", { text: entry.title || entry.card }),
      ` ×${entry.count}`, el("span", { class: "where", text: entry.where })));
  }
  const gone = since.removed_total - since.removed.length;
  if (gone > 0) removed.append(more(gone));
}

// --- statistics --------------------------------------------------------------------------

function renderStats(deck) {
  const box = $("stats");
  box.replaceChildren();
  if (!deck.stats) {
    box.append(el("p", { class: "note", text: "No statistics while the deck does not load." }));
    return;
  }
  deck.stats.pools.forEach((pool, index) => {
    const body = el("div");
    for (const table of pool.composition) {
      const block = el("div", { class: "stats-block" },
        el("h3", { text: table.among ? `${table.field} (${table.among})` : `by ${table.field}` }));
      const bars = el("div", { class: "bars" });
      const largest = Math.max(1, ...table.rows.map((row) => row.cards));
      for (const row of table.rows) {
        bar(bars, row.value === null ? "—" : String(row.value), row.cards / largest,
            `${row.cards} · ${Math.round(row.share * 100)}%`, { label: String(row.value) });
      }
      block.append(bars);
      body.append(block);
    }
    if (pool.questions.length) {
      const block = el("div", { class: "stats-block" }, el("h3", { text: "Draw odds" }));
      const list = el("ul", { class: "questions" });
      for (const question of pool.questions) {
        list.append(el("li", {},
          el("span", { class: "chance", text: `${(question.probability * 100).toFixed(1)}%` }),
          question.name,
          el("span", { class: "asks", text: question.asks, title: `exactly ${question.exact}` })));
      }
      block.append(list);
      body.append(block);
    }
    if (deck.stats.pools.length > 1) {
      const details = el("details", { class: "pool" }, el("summary", { text: `${pool.label} (${pool.cards} cards)` }), body);
      if (index === 0) details.open = true;
      box.append(details);
    } else {
      box.append(body);
    }
  });
  if (deck.stats.dice) box.append(diceBlock(deck.stats.dice));
  for (const note of deck.stats.notes || []) box.append(el("p", { class: "note", text: note }));
}

// One bar of a chart in ``bars``: its label, ``share`` (0 to 1) of its track filled, its value.
function bar(bars, label, share, value, titles = {}) {
  const fill = el("div", { class: "fill" });
  fill.style.width = `${share * 100}%`;
  bars.append(el("span", { class: "label", text: label, title: titles.label }),
    el("div", { class: "track", title: titles.track }, fill), el("span", { class: "value", text: value }));
}

function diceBlock(dice) {
  const title = `${dice.field} on ${dice.dice}` + (dice.value ? ` against ${dice.value}` : "");
  const block = el("div", { class: "stats-block" }, el("h3", { text: title }));
  const bars = el("div", { class: "bars" });
  const likeliest = Math.max(...dice.rows.map((row) => row.probability), 1e-9);
  for (const row of dice.rows) {
    const reward = row.reward === null || row.reward === undefined ? "" : ` · ${row.reward}`;
    bar(bars, String(row.roll), row.probability / likeliest, `${(row.probability * 100).toFixed(1)}%${reward}`,
        { track: `${row.exact} · ${row.card_ids.join(", ")}` });
  }
  block.append(bars);
  for (const mismatch of dice.mismatches || []) block.append(el("p", { class: "note warn", text: mismatch }));
  return block;
}

// --- filtering ---------------------------------------------------------------------------

const CLAUSE = /^\s*([\p{L}\p{N}_.\-]+)\s*(!=|<=|>=|==|=|<|>|\bnot\s+in\b|\bin\b)\s*(.*?)\s*$/iu;
const SPECIAL = { side: (face) => face.side, id: (face) => face.cards, card: (face) => face.cards,
                  copies: (face) => face.copies, count: (face) => face.copies, title: (face) => face.title };

function parseFilter(text, deck) {
  const clauses = [];
  const problems = [];
  const fields = new Map(deck.fields.map((name) => [name.toLowerCase(), name]));
  for (const part of text.split(/\s+and\s+|;/i).map((piece) => piece.trim()).filter(Boolean)) {
    const match = CLAUSE.exec(part);
    if (!match || !match[3]) { clauses.push({ text: part.toLowerCase() }); continue; }
    const name = match[1].toLowerCase();
    if (!fields.has(name) && !(name in SPECIAL)) {
      problems.push(`no field '${match[1]}' (fields: ${deck.fields.join(", ")})`);
      continue;
    }
    const operator = match[2].toLowerCase().replace(/\s+/g, " ");
    const values = /in$/.test(operator) ? match[3].split(",").map((value) => value.trim()) : [match[3]];
    clauses.push({ field: fields.get(name), special: SPECIAL[name], operator, values });
  }
  return { clauses, problems };
}

function valuesOf(face, clause) {
  const value = clause.special && !clause.field ? clause.special(face) : face.fields[clause.field];
  return Array.isArray(value) ? value : [value];
}

function compare(value, wanted, operator) {
  if (value === null || value === undefined) return operator === "!=" || operator === "not in";
  const number = Number(value);
  const target = Number(wanted);
  const numeric = wanted !== "" && !Number.isNaN(number) && !Number.isNaN(target) && typeof value !== "boolean";
  const equal = numeric ? number === target : String(value).toLowerCase() === wanted.toLowerCase();
  switch (operator) {
    case "=": case "==": case "in": return equal;
    case "!=": case "not in": return !equal;
    case "<": return numeric && number < target;
    case ">": return numeric && number > target;
    case "<=": return numeric && number <= target;
    case ">=": return numeric && number >= target;
  }
  return false;
}

// A face's own words, lower-cased, for text search. A back is found only by what it
// prints: a shared back carries every card's id, so it would match any card's name.
function faceText(face) {
  const own = [face.title, ...Object.values(face.fields).map(String)];
  return (face.side === "back" ? own : [...own, ...face.cards]).join("\n").toLowerCase();
}

function faceMatches(face, clauses) {
  return clauses.every((clause) => {
    if (clause.text !== undefined) return faceText(face).includes(clause.text);
    const values = valuesOf(face, clause);
    if (clause.operator === "not in" || clause.operator === "!=") {
      return clause.values.every((wanted) => values.every((value) => compare(value, wanted, clause.operator)));
    }
    return clause.values.some((wanted) => values.some((value) => compare(value, wanted, clause.operator)));
  });
}

function applyFilter() {
  const deck = currentDeck();
  if (!deck) return;
  const { clauses, problems } = parseFilter(state.filter, deck);
  $("filter").parentElement.classList.toggle("invalid", problems.length > 0);
  const notes = [...problems];
  const left = deck.distinct - deck.faces.length;
  if (left > 0) notes.push(`showing the first ${deck.faces.length} of ${deck.distinct} distinct faces`);
  $("filter-note").hidden = notes.length === 0;
  $("filter-note").textContent = notes.join("; ");
  let shown = 0;
  for (const tile of state.tiles.values()) {
    const face = tile._face;
    const visible = (state.side === "all" || face.side === state.side) && faceMatches(face, clauses) &&
      !(state.changedOnly && deck.since && !face.since);
    tile.hidden = !visible;
    if (visible) shown += 1;
  }
  $("count").textContent = `${shown} of ${state.tiles.size} faces`;
  $("empty").hidden = shown > 0 || state.tiles.size === 0;
}

// --- the detail view ---------------------------------------------------------------------

function openDetail(key, show) {
  const deck = currentDeck();
  const face = deck && deck.faces.find((candidate) => candidate.key === key);
  const dialog = $("detail");
  if (!face) { closeDetail(); return; }
  state.detail = key;
  showImage($("detail-image"), face);
  drawGuides(deck, face);
  $("detail-side").textContent = `${face.side}${face.shared ? " · shared back" : ""}`;
  $("detail-title").textContent = face.title || "(untitled)";
  $("detail-copies").textContent = `${copies(face.copies)} printed` +
    (face.card_count > 1 ? ` · on ${face.card_count} cards` : "");
  const box = $("detail-problem");
  const messages = deck.problems.filter((problem) => !problem.accepted && faceForProblem(deck, problem) === face)
    .map((problem) => `${problem.where}: ${problem.severity === "warning" ? "warning: " : ""}${problem.message}`);
  if (face.problem) messages.unshift(`Cannot be laid out: ${face.problem}`);
  box.hidden = messages.length === 0;
  box.replaceChildren(...messages.map((message) => el("p", { text: message })));
  const since = $("detail-since");
  since.hidden = !face.since;
  since.replaceChildren();
  if (face.since) {
    since.className = `detail-since since-${face.since.kind}`;
    since.append(el("p", { class: "eyebrow", text: `${face.since.kind} since ${deck.since.revision}` }));
    for (const detail of face.since.details) {
      since.append(el("p", {}, el("span", { class: "where", text: detail.where }), detail.what));
    }
  }
  renderFlip(deck, face);
  renderFields(deck, face);
  renderSheets(deck, face);
  if (show && !dialog.open) dialog.showModal();
}

function closeDetail() {
  state.detail = null;
  const dialog = $("detail");
  if (dialog.open) dialog.close();
}

function drawGuides(deck, face) {
  const guides = $("guides");
  guides.replaceChildren();
  if (!deck.card || !face.image) return;
  const { width: w, height: h, bleed: b } = deck.card;
  const safe = deck.card.safe[face.side] || 0;
  guides.setAttribute("viewBox", `${-b} ${-b} ${w + 2 * b} ${h + 2 * b}`);
  guides.setAttribute("preserveAspectRatio", "none");
  if (b > 0) {
    guides.append(svg("path", { class: "bleed", "data-guide": "bleed", "fill-rule": "evenodd",
      d: `M${-b} ${-b}h${w + 2 * b}v${h + 2 * b}h${-(w + 2 * b)}z M0 0v${h}h${w}v${-h}z` }));
  }
  // Each line is drawn twice, a light halo under a dark line, so it shows on any artwork.
  for (const part of ["halo", "line"]) {
    guides.append(svg("rect", { class: `trim ${part}`, "data-guide": "trim", x: 0, y: 0, width: w, height: h }));
    if (safe > 0) {
      guides.append(svg("rect", { class: `safe ${part}`, "data-guide": "safe", x: safe, y: safe,
                                  width: w - 2 * safe, height: h - 2 * safe }));
    }
  }
  syncGuides();
}

function syncGuides() {
  for (const box of document.querySelectorAll(".legend input")) {
    for (const shape of $("guides").querySelectorAll(`[data-guide="${box.dataset.guide}"]`)) {
      shape.style.display = box.checked ? "" : "none";
    }
  }
}

function renderFlip(deck, face) {
  const flip = $("detail-flip");
  flip.replaceChildren();
  const other = face.side === "front" ? "back" : "front";
  const partners = deck.faces.filter((candidate) => candidate.side === other &&
    candidate.cards.some((card) => face.cards.includes(card)));
  for (const partner of partners.slice(0, 6)) {
    const button = el("button", { type: "button", text: `${other === "back" ? "Back" : "Front"}: ${partner.title || partner.cards[0]}` });
    button.addEventListener("click", () => openDetail(partner.key, true));
    flip.append(button);
  }
}

function renderFields(deck, face) {
  const table = $("detail-fields");
  table.replaceChildren();
  const names = Object.keys(face.fields);
  if (!names.length) table.append(el("tr", {}, el("td", { text: "This face shows no fields." })));
  for (const name of names) {
    const value = face.fields[name];
    table.append(el("tr", {}, el("th", { text: name }), el("td", { text: value === null ? "—" : String(value) })));
  }
  const cards = face.cards.slice(0, CARDS_SHOWN);
  table.append(el("tr", { class: "card-row" }, el("th", { text: face.card_count > 1 ? "cards" : "card" }),
    el("td", { text: cards.map((id) => `${id} ×${deck.cards[id].count}`).join(", ") +
      (face.card_count > cards.length ? `, and ${face.card_count - cards.length} more` : "") })));
  table.append(el("tr", {}, el("th", { text: "written at" }),
    el("td", { text: cards.slice(0, 3).map((id) => deck.cards[id].where).join(", ") })));
}

function renderSheets(deck, face) {
  const box = $("detail-sheets");
  const list = $("detail-spots");
  box.replaceChildren();
  list.replaceChildren();
  $("detail-paper").textContent = deck.sheet
    ? `${deck.sheet.paper.name.toUpperCase()}, ${deck.sheet.per_sheet} cards a sheet, duplex ${deck.sheet.duplex}: ` +
      "as deckpress build prints with no options" : "";
  if (!deck.sheet) {
    list.append(el("li", { text: "Not printed (no copies, or the card is larger than the paper)." }));
    return;
  }
  const spots = [];  // [card id, copy, front spot, back spot]
  for (const id of face.cards) {
    const where = deck.cards[id].print;
    if (!where) continue;
    for (const copy of where.copies) spots.push([id, copy.copy, copy.front, copy.back]);
  }
  if (!spots.length) {
    list.append(el("li", { text: "Not printed: this card's count is 0." }));
    return;
  }
  const [, , firstFront, firstBack] = spots[0];
  const frontPage = firstFront.page, backPage = firstBack.page;
  box.append(sheetPicture(deck.sheet, frontPage, spots, face.side === "front" ? "fronts" : "fronts (the other side)"));
  if (backPage !== frontPage) {
    box.append(sheetPicture(deck.sheet, backPage, spots, face.side === "back" ? "backs" : "backs (the other side)"));
  }
  for (const [id, copy, front, back] of spots.slice(0, SPOTS_SHOWN)) {
    const here = face.side === "front" ? front : back;
    list.append(el("li", {}, el("span", { class: "copy", text: face.card_count > 1 ? `${id} #${copy}` : `#${copy}` }),
      `page ${here.page}, row ${here.row}, column ${here.column}`));
  }
  const unlisted = face.copies - Math.min(spots.length, SPOTS_SHOWN);
  if (unlisted > 0) list.append(el("li", { class: "note", text: `and ${unlisted} more ${unlisted === 1 ? "copy" : "copies"}` }));
}

function sheetPicture(sheet, page, spots, label) {
  const { width: W, height: H } = sheet.paper;
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `page ${page}` });
  const fold = sheet.duplex === "fold";
  const boxes = fold ? [...sheet.fronts, ...sheet.backs] : (label.startsWith("fronts") ? sheet.fronts : sheet.backs);
  const highlighted = new Set();
  for (const spot of spots) {
    for (const here of [spot[2], spot[3]]) {
      if (here.page === page) highlighted.add(here.box.join(","));
    }
  }
  for (const [x, y, w, h] of boxes) {
    const here = highlighted.has([x, y, w, h].join(","));
    picture.append(svg("rect", { class: here ? "slot here" : "slot", x, y: H - y - h, width: w, height: h }));
  }
  if (sheet.fold_line) {
    const [x0, y0, x1, y1] = sheet.fold_line;
    picture.append(svg("line", { class: "fold", x1: x0, y1: H - y0, x2: x1, y2: H - y1 }));
  }
  return el("figure", { class: "sheet" }, picture, el("figcaption", { text: `page ${page} · ${fold ? "fold" : label}` }));
}

// --- wiring ------------------------------------------------------------------------------

function step(offset) {
  const visible = [...state.tiles.values()].filter((tile) => !tile.hidden);
  const index = visible.findIndex((tile) => tile.dataset.key === state.detail);
  const next = visible[index + offset];
  if (next) { openDetail(next.dataset.key, true); next.scrollIntoView({ block: "nearest" }); }
}

function start() {
  const filter = $("filter");
  filter.addEventListener("input", () => { state.filter = filter.value; applyFilter(); });
  for (const button of document.querySelectorAll(".segmented button")) {
    button.addEventListener("click", () => {
      state.side = button.dataset.side;
      for (const other of document.querySelectorAll(".segmented button")) {
        other.setAttribute("aria-pressed", String(other === button));
      }
      applyFilter();
    });
  }
  const changedOnly = $("changed-only");
  changedOnly.addEventListener("click", () => {
    state.changedOnly = !state.changedOnly;
    changedOnly.setAttribute("aria-pressed", String(state.changedOnly));
    applyFilter();
  });
  const zoom = $("zoom");
  zoom.addEventListener("input", () => document.documentElement.style.setProperty("--card-w", `${zoom.value}px`));
  for (const box of document.querySelectorAll(".legend input")) box.addEventListener("change", syncGuides);
  $("detail-close").addEventListener("click", closeDetail);
  $("detail").addEventListener("close", () => { state.detail = null; });
  $("detail").addEventListener("click", (event) => { if (event.target === $("detail")) closeDetail(); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "/" && document.activeElement !== filter) { event.preventDefault(); filter.focus(); }
    if ($("detail").open && event.key === "ArrowRight") step(1);
    if ($("detail").open && event.key === "ArrowLeft") step(-1);
  });
  connect();
}

start();
