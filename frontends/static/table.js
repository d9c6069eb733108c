// The Shengji table page: draws /api/state and posts the person's clicks.
"use strict";
let state = null;
let showLast = false;
let replay = null; // {hands: [[frame, ...]], hand: 0, frame: 0}
// The match belongs to the tab holding the server's token (kept per tab); other tabs watch.
let token = sessionStorage.getItem("table-token") || "";
let watcher = null; // a timer that redraws a watching tab
const PROMPTS = {
  bid: "Declare: pick level cards or jokers and press Play, or press Play with nothing picked to pass.",
  bury: "Bury: pick the cards to put back as the kitty, then press Play.",
  lead: "Lead: one combination, or several of one suit (a throw).",
  follow: "Follow: pick as many cards as were led.",
  waiting: "The bots are playing.",
  hand_over: "The hand is over.",
};

const $ = (id) => document.getElementById(id);

function cardsHtml(cards, classes) {
  return cards.map((c) => `<span class="card${c.red ? " red" : ""}${classes ? " " + classes(c) : ""}" ` +
    `data-card="${c.id}" data-testid="card-${c.text}">${c.label}</span>`).join("");
}

function where(seat) {
  return ["south", "east", "north", "west"][(seat - state.seat + 4) % 4];
}

function seatName(seat) {
  return seat === state.seat ? "you" : `seat ${seat} (${state.seats[seat]})`;
}

// A seat's name inside HTML: a bot's name is text, never markup.
const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function seatHtml(seat) {
  return seatName(seat).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

function draw() {
  const s = state;
  const trump = s.trump === null ? "not set" : s.trump === "none" ? "no trump" : s.trump;
  const number = s.result ? s.hands_played : s.hands_played + 1;
  $("status").textContent = `Hand ${number} | level ${s.level} | trump ${trump} | dealer ` +
    `${s.dealer === null ? "?" : seatName(s.dealer)} | attackers' points ${s.points} | levels: ` +
    `seats 0+2 ${s.levels[0]}, seats 1+3 ${s.levels[1]} | you are seat ${s.seat}`;
  for (const pos of ["north", "west", "east"]) {
    const seat = ["south", "east", "north", "west"].indexOf(pos);
    const abs = (s.seat + seat) % 4;
    const el = document.querySelector(`.seat.${pos}`);
    el.textContent = seatName(abs) + (s.dealer === abs ? " — dealer" : "");
  }
  const trick = s.trick.plays.map((p) =>
    `<div class="${where(p.seat)}" data-testid="play-${where(p.seat)}"><div class="label">${seatHtml(p.seat)}</div>` +
    `${cardsHtml(p.cards)}</div>`).join("");
  $("trick").innerHTML = trick || `<div class="south label">trick ${s.tricks_played + 1}</div>`;
  $("bids").innerHTML = s.bids.length ? "Declarations: " + s.bids.map((b) =>
    `${seatHtml(b.seat)} <span class="small">${cardsHtml(b.cards)}</span>`).join(" · ") : "No declaration yet.";
  $("kitty").innerHTML = s.kitty.length ? `Your kitty: <span class="small">${cardsHtml(s.kitty)}</span>` : "";
  $("revealed").innerHTML = s.revealed.map((cards, seat) => cards.length ?
    `${seatHtml(seat)} showed (failed throw): <span class="small">${cardsHtml(cards)}</span>` : "").join(" ");
  const last = s.last_trick;
  $("last-trick").hidden = !(showLast && last);
  if (last) {
    $("last-trick").innerHTML = `Last trick, won by ${seatHtml(last.winner)} (+${last.points}): ` +
      last.plays.map((p) => `${seatHtml(p.seat)} <span class="small">${cardsHtml(p.cards)}</span>`).join(" ") +
      (last.attempt ? ` — throw tried: <span class="small">${cardsHtml(last.attempt)}</span>` : "");
  }
  const picked = {};
  for (const c of s.selected) picked[c.id] = (picked[c.id] || 0) + 1;
  const seen = {};
  const legal = new Set(s.legal);
  $("hand").innerHTML = cardsHtml(s.hand, (c) => {
    seen[c.id] = (seen[c.id] || 0) + 1;
    const chosen = seen[c.id] <= (picked[c.id] || 0);
    return chosen ? "selected" : legal.has(c.id) ? "legal" : "dim";
  });
  $("prompt").textContent = !s.owner ? "Another tab plays this match; this tab watches it. " +
    "New match starts one here." : s.match_over ? "The match is over." : PROMPTS[s.phase] || "";
  $("message").textContent = s.error || s.message || "";
  document.body.classList.toggle("watching", !s.owner);
  $("play").disabled = !s.can_play || !s.owner;
  $("play").textContent = s.phase === "bid" && s.selected.length === 0 ? "Pass" :
    s.phase === "bury" ? "Bury" : s.phase === "bid" ? "Declare" : "Play";
  $("clear").disabled = s.selected.length === 0 || !s.owner;
  $("next").disabled = !s.owner;
  const over = s.result !== null;
  $("score").hidden = !over;
  if (over) {
    const r = s.result;
    const mine = (r.dealer % 2 === s.seat % 2) === (r.winner === "dealer");
    $("score-title").textContent = (mine ? "Your team wins the hand" : "Your team loses the hand") +
      (r.match_winner !== null ? " — match over" : "");
    $("score-text").textContent = `Attackers ${r.attacker_points} points (tricks ${r.trick_points}, ` +
      `kitty ${r.kitty_points} ×${r.kitty_multiplier}, penalties ${r.penalty_points}); ` +
      `${r.winner} +${r.levels_gained}; ${seatName(r.next_dealer)} deals next.`;
    $("next").textContent = r.match_winner !== null ? "Close" : "Next hand";
    $("score-last").innerHTML = last ? `Last trick, won by ${seatHtml(last.winner)} (+${last.points}): ` +
      last.plays.map((p) => `${seatHtml(p.seat)} ${cardsHtml(p.cards)}`).join(" ") : "";
  }
}

function keep(answer) {
  if (answer.token) {
    token = answer.token;
    sessionStorage.setItem("table-token", token);
  }
  state = answer;
  clearInterval(watcher);
  watcher = state.owner ? null : setInterval(refresh, 2000);
  draw();
}

async function post(path, body) {
  const response = await fetch(path, {method: "POST", body: JSON.stringify(body || {}),
    headers: {"Content-Type": "application/json", "X-Table-Token": token}});
  keep(await response.json());
  document.body.dataset.answered = String(Number(document.body.dataset.answered || 0) + 1);
}

async function refresh() {
  keep(await (await fetch("/api/state", {headers: {"X-Table-Token": token}})).json());
}

// A new match over an unfinished one (this tab's or another's) only once the person agrees.
function newMatch() {
  const question = !state.owner ? "Another tab is playing this match. End it and start a new match here?" :
    "End this match and start a new one?";
  if (state.match_over || confirm(question)) post("/api/new", {confirm: true});
}

$("hand").addEventListener("click", (event) => {
  const el = event.target.closest(".card");
  if (!el || !state.owner) return;
  const card = Number(el.dataset.card);
  post(el.classList.contains("selected") ? "/api/unselect" : "/api/select", {card});
});
$("play").addEventListener("click", () => post("/api/play"));
$("clear").addEventListener("click", () => post("/api/clear"));
$("next").addEventListener("click", () => post("/api/next"));
$("new").addEventListener("click", newMatch);
$("show-last").addEventListener("click", () => { showLast = !showLast; draw(); });

function drawReplay() {
  const frames = replay.hands[replay.hand];
  const f = frames[replay.frame];
  $("replay-title").textContent = `Replay: hand ${replay.hand + 1} of ${replay.hands.length}, ` +
    `step ${replay.frame + 1} of ${frames.length} (${f.event})`;
  const hands = f.hands.map((h, seat) => `<div>seat ${seat}${f.dealer === seat ? " (dealer)" : ""}: ` +
    `<span class="small">${cardsHtml(h)}</span></div>`).join("");
  const trick = f.trick ? `<p>Trick ${f.trick_number}: ` + f.trick.plays.map((p) =>
    `seat ${p.seat} <span class="small">${cardsHtml(p.cards)}</span>`).join(" ") +
    ` → seat ${f.trick.winner} (+${f.trick.points})</p>` : "";
  const result = f.result ? `<p data-testid="replay-result">Attackers ${f.result.attacker_points} points; ` +
    `${f.result.winner} +${f.result.levels_gained}</p>` : "";
  $("replay-body").innerHTML = `<p>Trump ${f.trump}; attackers' points ${f.points}</p>${hands}${trick}${result}`;
}

function stepReplay(delta) {
  const frames = replay.hands[replay.hand];
  replay.frame += delta;
  if (replay.frame >= frames.length && replay.hand + 1 < replay.hands.length) { replay.hand++; replay.frame = 0; }
  if (replay.frame < 0 && replay.hand > 0) { replay.hand--; replay.frame = replay.hands[replay.hand].length - 1; }
  replay.frame = Math.max(0, Math.min(replay.frame, replay.hands[replay.hand].length - 1));
  drawReplay();
}

$("load").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const response = await fetch("/api/replay/frames", {method: "POST", body: await file.text()});
  const data = await response.json();
  event.target.value = "";
  if (data.error) { $("message").textContent = "replay: " + data.error; return; }
  replay = {hands: data.hands, hand: 0, frame: 0};
  $("replay").hidden = false;
  drawReplay();
});
$("replay-next").addEventListener("click", () => stepReplay(1));
$("replay-prev").addEventListener("click", () => stepReplay(-1));
$("replay-close").addEventListener("click", () => { $("replay").hidden = true; });

post("/api/join");
