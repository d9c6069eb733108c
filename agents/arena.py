"""The arena: agents against each other on duplicate deals, with honest statistics.

Every deal is played twice with the same cards, the teams' seats swapped, so the luck of
the cards cancels. For each pair of agents the arena reports, with 95% intervals over
paired deals: the mean level gain per hand (the env's ``levels`` reward: +3/+2/+1 for a
dealer team that keeps the deal, 1 + levels gained for a take-over, the negative for the
other team), the hand win rate, the share of paired deals won, and the points each agent
takes as the attackers; plus Elo ratings fitted to a round robin, and each agent's
behaviour (:mod:`shengji_env.agents.behaviour`).

With ``options={"episode": "match"}`` a "deal" is a whole match: the same sequence of
decks twice (a match's shuffles come from its seed alone), the reward ±1 for the match,
the win rate the share of matches won, the attackers' points those of the last hand, and
the behaviour counted over every hand of the matches.

Results stream to a JSON-lines file as deals finish, so an interrupted run keeps them and
``resume`` skips them.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import multiprocessing
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from shengji_env.env import raw_env
from shengji_env.files import exclusive
from shengji_env.replay import HandRecorder, write_replay
from shengji_env.rules import Game

from .base import Agent
from .behaviour import BehaviourSummary, TeamBehaviour, team_behaviour
from .play import play_hand, play_match
from .registry import load_agent

Z95 = 1.959964


@dataclass(frozen=True)
class HandOutcome:
    """One hand of a duplicate pair, from agent A's side."""

    a_seats: int  # 0: A sits in seats 0 and 2; 1: seats 1 and 3
    a_reward: float  # A's team reward in levels (zero-sum)
    a_attacking: bool
    attacker_points: int
    # each team's behaviour in every hand of the episode (one hand, or a match's); empty in
    # records written before they were kept
    a_teams: tuple[TeamBehaviour, ...] = ()
    b_teams: tuple[TeamBehaviour, ...] = ()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandOutcome:
        kept = ("a_seats", "a_reward", "a_attacking", "attacker_points")
        teams = {f"{key}s": _teams(data, key) for key in ("a_team", "b_team")}
        return cls(**{key: data[key] for key in kept}, **teams)


def _teams(data: dict[str, Any], key: str) -> tuple[TeamBehaviour, ...]:
    """A record's ``a_teams`` (``key`` "a_team") or ``b_teams``; records of hand episodes
    written before matches counted behaviour hold one hand under ``a_team``."""
    if data.get(f"{key}s") is not None:
        return tuple(TeamBehaviour(**hand) for hand in data[f"{key}s"])
    return () if data.get(key) is None else (TeamBehaviour(**data[key]),)


@dataclass(frozen=True)
class DealRecord:
    """A duplicate deal between agents ``a`` and ``b`` (specs), both hands."""

    a: str
    b: str
    deal: int
    seed: int
    hands: tuple[HandOutcome, HandOutcome]
    faults: dict[str, dict[str, int]] = field(default_factory=dict)
    """Outside bots' faults in this deal, by agent and kind (TLE, RE, ...): none is empty."""

    @property
    def a_gain(self) -> float:
        """A's mean reward per hand over the pair."""
        return (self.hands[0].a_reward + self.hands[1].a_reward) / 2

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealRecord:
        hands = tuple(HandOutcome.from_json(hand) for hand in data["hands"])
        faults = {name: dict(kinds) for name, kinds in data.get("faults", {}).items()}
        return cls(data["a"], data["b"], data["deal"], data["seed"], hands, faults)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Player:
    """An agent the arena seats under ``name`` without a spec string (a network in memory,
    for in-run evaluation): ``make(seed)`` builds a fresh one for each hand. Plays in this
    process only (``jobs`` 1, local backend)."""

    name: str
    make: Callable[[int], Agent]


Entrant = str | Player  # an agent spec (see shengji_env.agents.registry) or a Player


def entrant_name(entrant: Entrant) -> str:
    return entrant if isinstance(entrant, str) else entrant.name


def _seat_agent(entrant: Entrant, seed: int, seat: int) -> Agent:
    """A fresh agent for one episode; an outside program (``cmd:``) keeps its process from
    episode to episode in this worker, one per seat."""
    if not isinstance(entrant, str):
        return entrant.make(seed)
    if not entrant.startswith("cmd:"):
        return load_agent(entrant, seed=seed)
    agent = _OUTSIDE.get((entrant, seat))
    if agent is None:
        agent = _OUTSIDE[(entrant, seat)] = load_agent(entrant, seed=seed)
    return agent  # play_hand and play_match reset it: its faults count from there


_OUTSIDE: dict[tuple[str, int], Agent] = {}  # this worker's outside bots, by spec and seat


def _add_faults(faults: dict[str, Counter], agents: Sequence[Agent], names: Sequence[str]) -> None:
    """Add each outside bot's faults of the episode just played (counted since the reset
    at its start) to ``faults``, by name, summed over its seats."""
    for agent, name in zip(agents, names, strict=True):
        counts = getattr(agent, "faults", None)
        if counts:
            faults.setdefault(name, Counter()).update(counts)


def play_deal(
    a: Entrant,
    b: Entrant,
    deal: int,
    seed: int,
    options: dict[str, Any],
    replays: list[list[dict[str, Any]]] | None = None,
) -> DealRecord:
    """Both hands of a duplicate deal: A in seats 0/2, then in seats 1/3, same cards.
    With ``replays`` (a list), each hand's replay events are appended to it."""
    outcomes = []
    faults: dict[str, Counter] = {}
    for a_seats in (0, 1):
        seated = [a if seat % 2 == a_seats else b for seat in range(4)]
        rewards, hands = _play_seated(seated, seed, options, replays, faults)
        result = hands[-1].result
        assert result is not None
        outcomes.append(
            HandOutcome(
                a_seats,
                rewards[a_seats],
                1 - result.dealer % 2 == a_seats,
                result.attacker_points,
                tuple(team_behaviour(game, a_seats) for game in hands),
                tuple(team_behaviour(game, 1 - a_seats) for game in hands),
            )
        )
    kept = {name: dict(counts) for name, counts in faults.items()}
    return DealRecord(
        entrant_name(a), entrant_name(b), deal, seed, (outcomes[0], outcomes[1]), kept
    )


def _play_seated(
    seated: list[Entrant],
    seed: int,
    options: dict[str, Any],
    replays: list[list[dict[str, Any]]] | None,
    faults: dict[str, Counter],
) -> tuple[list[float], list[Game]]:
    """The episode ``seed`` (a hand, or a match hand by hand) with these entrants in seats
    0–3: each seat's reward and every finished hand. Outside bots' faults during it are
    added to ``faults``."""
    env = raw_env(**{**options, "episode": "hand"})
    agents = [_seat_agent(entrant, seed * 4 + seat, seat) for seat, entrant in enumerate(seated)]
    names = [entrant_name(entrant) for entrant in seated]
    hands: list[Game] = []
    if options.get("episode", "hand") == "match":
        rewards = play_match(env, agents, seed, hands.append)
    else:
        recorder = None if replays is None else _LazyRecorder(env, names)
        rewards = play_hand(env, agents, seed, None if recorder is None else recorder.hook)
        if recorder is not None and replays is not None:
            replays.append(recorder.events())
        hands = [env.game]
    _add_faults(faults, agents, names)
    return rewards, hands


class _LazyRecorder:
    """A :class:`HandRecorder` made at the hand's first decision (after the reset)."""

    def __init__(self, env: Any, names: list[str]) -> None:
        self.env, self.names = env, names
        self.recorder: HandRecorder | None = None

    def hook(self, seat: int, observation: Any, info: Any, action: int) -> None:
        if self.recorder is None:
            self.recorder = HandRecorder(self.env.game, self.names)
        self.recorder.step(action)

    def events(self) -> list[dict[str, Any]]:
        if self.recorder is None or not self.recorder.finished:
            raise RuntimeError("the hand was not recorded to its end")
        return self.recorder.events


def deal_seed(base_seed: int, deal: int) -> int:
    """The same deals for every pair of agents in a run."""
    return base_seed * 1_000_003 + deal


@dataclass
class Interval:
    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        array = np.asarray(values, dtype=float)
        if array.size == 0:
            return cls(math.nan, math.nan, math.nan)
        mean = float(array.mean())
        half = (
            Z95 * float(array.std(ddof=1)) / math.sqrt(array.size) if array.size > 1 else math.inf
        )
        return cls(mean, mean - half, mean + half)

    def __str__(self) -> str:
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"


@dataclass
class PairSummary:
    """A against B over ``deals`` paired deals (intervals are 95%, over paired deals)."""

    a: str
    b: str
    deals: int
    level_gain: Interval  # A's mean reward per hand
    hand_win_rate: Interval  # share of hands A's team won (reward > 0)
    paired_win_share: float  # paired deals A won outright (ties count half)
    a_attack_points: Interval
    b_attack_points: Interval

    @classmethod
    def of(cls, a: str, b: str, records: Sequence[DealRecord]) -> PairSummary:
        gains = [r.a_gain for r in records]
        wins = [float(np.mean([h.a_reward > 0 for h in r.hands])) for r in records]
        share = (
            float(np.mean([1.0 if g > 0 else 0.5 if g == 0 else 0.0 for g in gains]))
            if gains
            else math.nan
        )
        a_points = [h.attacker_points for r in records for h in r.hands if h.a_attacking]
        b_points = [h.attacker_points for r in records for h in r.hands if not h.a_attacking]
        return cls(
            a,
            b,
            len(records),
            Interval.of(gains),
            Interval.of(wins),
            share,
            Interval.of(a_points),
            Interval.of(b_points),
        )


def fit_elo(
    scores: dict[tuple[str, str], tuple[float, int]], names: Sequence[str]
) -> dict[str, float]:
    """Elo ratings (mean 1500) from paired win shares: a Bradley-Terry fit by the
    minorization-maximization updates, with half a win of prior each way."""
    strength = dict.fromkeys(names, 1.0)
    for _ in range(200):
        for name in names:
            won, games = 0.0, 0.0
            for (a, b), (share, n) in scores.items():
                if name not in (a, b):
                    continue
                other = b if name == a else a
                mine = share if name == a else 1 - share
                won += mine * n + 0.5
                games += (n + 1) / (strength[name] + strength[other])
            if games:
                strength[name] = won / games
        mean_log = float(np.mean([math.log(s) for s in strength.values()]))
        strength = {k: math.exp(math.log(v) - mean_log) for k, v in strength.items()}
    return {k: 1500 + 400 * math.log10(v) for k, v in strength.items()}


@dataclass
class ArenaResult:
    agents: list[str]
    deals: int
    options: dict[str, Any]
    seed: int
    records: list[DealRecord] = field(default_factory=list)
    interrupted: bool = False

    def pairs(self) -> list[PairSummary]:
        summaries = []
        for a, b in itertools.combinations(self.agents, 2):
            mine = [r for r in self.records if (r.a, r.b) == (a, b)]
            summaries.append(PairSummary.of(a, b, sorted(mine, key=lambda r: r.deal)))
        return summaries

    def behaviour(self) -> dict[str, BehaviourSummary]:
        """Each agent's behaviour over every hand it played (records that predate it
        count no hands)."""
        teams: dict[str, list[TeamBehaviour]] = {name: [] for name in self.agents}
        for record in self.records:
            for hand in record.hands:
                teams[record.a].extend(hand.a_teams)
                teams[record.b].extend(hand.b_teams)
        return {name: BehaviourSummary.of(seen) for name, seen in teams.items()}

    def faults(self) -> dict[str, dict[str, int]]:
        """Outside bots' faults over every deal, by agent and kind."""
        totals: dict[str, Counter] = {}
        for record in self.records:
            for name, kinds in record.faults.items():
                totals.setdefault(name, Counter()).update(kinds)
        return {name: dict(counts) for name, counts in totals.items()}

    def elo(self, bootstrap: int = 200) -> dict[str, Interval]:
        """Elo per agent with a 95% interval from resampling each pair's deals."""
        rng = np.random.default_rng(self.seed)
        by_pair = {
            (s.a, s.b): np.array([r.a_gain for r in self.records if (r.a, r.b) == (s.a, s.b)])
            for s in self.pairs()
        }

        def ratings(sample: Callable[[np.ndarray], np.ndarray]) -> dict[str, float]:
            scores = {}
            for pair, gains in by_pair.items():
                drawn = sample(gains)
                share = float(np.mean(np.sign(drawn) * 0.5 + 0.5)) if drawn.size else 0.5
                scores[pair] = (share, int(drawn.size))
            return fit_elo(scores, self.agents)

        point = ratings(lambda g: g)
        draws = [
            ratings(lambda g: g[rng.integers(g.size, size=g.size)] if g.size else g)
            for _ in range(bootstrap)
        ]
        return {
            name: Interval(
                point[name],
                float(np.percentile([d[name] for d in draws], 2.5)),
                float(np.percentile([d[name] for d in draws], 97.5)),
            )
            for name in self.agents
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "agents": self.agents,
            "deals": self.deals,
            "options": self.options,
            "seed": self.seed,
            "finished_deals": len(self.records),
            "interrupted": self.interrupted,
            "pairs": [asdict(p) for p in self.pairs()],
            "elo": {k: asdict(v) for k, v in self.elo().items()},
            "behaviour": {k: asdict(v) for k, v in self.behaviour().items()},
            "faults": self.faults(),
            "records": [r.to_json() for r in self.records],
        }


Task = tuple[Entrant, Entrant, int, int, dict[str, Any], bool]


def _play_task(task: Task) -> dict[str, Any]:
    a, b, deal, seed, options, record = task
    replays: list[list[dict[str, Any]]] | None = [] if record else None
    data = play_deal(a, b, deal, seed, options, replays).to_json()
    if replays is not None:
        data[REPLAYS] = replays
    return data


REPLAYS = "replays"  # a task's result: the deal's record, and with it its hands' replays


HEADER = "arena"  # the first line of a records file: {"arena": {"options": …, "seed": …}}


def read_records(path: Path) -> list[DealRecord]:
    """Finished deals from a JSON-lines file, each deal once (a torn last line from a crash
    and the header line are skipped)."""
    if not path.exists():
        return []
    records, seen = [], set()
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = DealRecord.from_json(json.loads(line))
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
        if (record.a, record.b, record.deal) not in seen:
            seen.add((record.a, record.b, record.deal))
            records.append(record)
    return records


def read_header(path: Path) -> dict[str, Any] | None:
    """The options and seed a records file was played with (``None``: no header)."""
    if not path.exists():
        return None
    with path.open(encoding="utf-8") as handle:
        first = handle.readline()
    try:
        data = json.loads(first)
    except json.JSONDecodeError:
        return None
    return data.get(HEADER) if isinstance(data, dict) else None


@contextlib.contextmanager
def locked(path: Path | None) -> Iterator[None]:
    """Hold ``path``'s lock file for the run: a second run on the same records fails."""
    if path is None:
        yield
        return
    with exclusive(path.with_name(path.name + ".lock"), f"another arena run is writing {path}"):
        yield


def _start_records(path: Path, resume: bool, header: dict[str, Any]) -> list[DealRecord]:
    """The deals to keep from ``path`` (with ``resume``), after checking they were played
    with the same options and seed; a fresh file starts with the header."""
    if resume and path.exists() and path.stat().st_size:
        found = read_header(path)
        if found is None:
            raise ValueError(f"{path} has no arena header (options, seed): it cannot resume")
        if found != header:
            raise ValueError(
                f"{path} was played with {found}; this run asks for {header}: resume with "
                "the same --decks, options and --seed, or write to another --out"
            )
        return read_records(path)
    path.write_text(json.dumps({HEADER: header}) + "\n", encoding="utf-8")
    return []


def run_arena(
    agents: Sequence[Entrant],
    deals: int,
    *,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    jobs: int = 1,
    records_path: Path | None = None,
    resume: bool = False,
    on_record: Callable[[DealRecord], None] | None = None,
    backend: str = "local",
    ray_address: str = "",
    replay_path: Path | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals for every pair of ``agents`` (a round robin): agent
    specs, or :class:`Player` objects (in this process only).

    Finished deals are appended to ``records_path`` (JSON lines) as they arrive; with
    ``resume`` the deals already there are kept and not played again. A
    ``KeyboardInterrupt`` stops the run; what finished is kept in the file and returned.
    ``backend="ray"`` fans the deals out to Ray tasks (``ray_address``: a cluster to join).
    ``replay_path``: every hand played is appended there as replay events
    (:mod:`shengji_env.replay`), as its deal finishes.
    """
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be local or ray, got {backend!r}")
    if len(agents) < 2:
        raise ValueError("the arena needs at least two agents")
    names = [entrant_name(entrant) for entrant in agents]
    if len(set(names)) != len(names):
        raise ValueError(f"agent specs must differ: {names}")
    for entrant in agents:
        if isinstance(entrant, str):
            load_agent(entrant)  # fail fast on a bad spec, before any process starts
        elif jobs > 1 or backend != "local":
            raise ValueError(f"{entrant.name} is an agent in memory: it plays with jobs=1, local")
    options = dict(options or {})
    if replay_path is not None and options.get("episode", "hand") != "hand":
        raise ValueError("replays are written for hand episodes, not whole matches")
    result = ArenaResult(names, deals, options, seed)
    if replay_path is not None and not resume:
        replay_path.write_text("", encoding="utf-8")
    with locked(records_path):
        done: set[tuple[str, str, int]] = set()
        if records_path is not None:
            header = {"options": options, "seed": seed}
            for record in _start_records(records_path, resume, header):
                if record.a in names and record.b in names:
                    result.records.append(record)
                    done.add((record.a, record.b, record.deal))
        tasks = [
            (a, b, deal, deal_seed(seed, deal), options, replay_path is not None)
            for deal in range(deals)
            for a, b in itertools.combinations(agents, 2)
            if (entrant_name(a), entrant_name(b), deal) not in done
        ]
        keep = _keeper(result, records_path, on_record, replay_path)
        _play_tasks(result, tasks, keep, jobs, backend, ray_address)
    return result


def _play_tasks(
    result: ArenaResult,
    tasks: list[Task],
    keep: Callable[[dict[str, Any]], None],
    jobs: int,
    backend: str,
    ray_address: str,
) -> None:
    try:
        if backend == "ray":
            _run_ray_tasks(tasks, ray_address, keep)
        else:
            _run_tasks(tasks, jobs, keep)
    except KeyboardInterrupt:
        result.interrupted = True


def _keeper(
    result: ArenaResult,
    records_path: Path | None,
    on_record: Callable[[DealRecord], None] | None,
    replay_path: Path | None = None,
) -> Callable[[dict[str, Any]], None]:
    def keep(data: dict[str, Any]) -> None:
        replays = data.pop(REPLAYS, None)
        if replay_path is not None and replays is not None:
            write_replay(replay_path, replays, append=True)
        record = DealRecord.from_json(data)
        result.records.append(record)
        if records_path is not None:
            with records_path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(data) + "\n")
        if on_record is not None:
            on_record(record)

    return keep


def _run_ray_tasks(
    tasks: Sequence[Task], address: str, keep: Callable[[dict[str, Any]], None]
) -> None:
    import ray

    if not ray.is_initialized():
        ray.init(address=address or None, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(num_cpus=1, max_retries=3)(_play_task)
    pending = [remote.remote(task) for task in tasks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            keep(ray.get(done[0]))
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref)
        raise


def _one_thread_each() -> None:
    """A worker's math libraries (torch's OpenMP pool) on one thread: with a pool of the
    cores' size in every worker they spin against each other, and an arena of policies ran
    33 times slower with two workers than with one (BENCHMARKS.md, 2026-12-05)."""
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # for a torch not yet loaded
        os.environ[name] = "1"
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def _run_tasks(tasks: Sequence[Task], jobs: int, keep: Callable[[dict[str, Any]], None]) -> None:
    if jobs <= 1:
        for task in tasks:
            keep(_play_task(task))
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_one_thread_each) as pool:
        try:
            for data in pool.imap_unordered(_play_task, tasks, chunksize=1):
                keep(data)
        except KeyboardInterrupt:
            pool.terminate()  # finished deals are already kept
            raise
