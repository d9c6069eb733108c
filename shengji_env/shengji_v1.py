"""Shengji (升级 / Tractor / 拖拉机) for 1, 2 or 3 decks — environment version 1.

Pin this module to pin the environment's behaviour: a change to the rules, observations,
masks or rewards gets a new module (``shengji_v1``), as PettingZoo's classic games do.

```python
from shengji_env import shengji_v1

env = shengji_v1.env(decks=2)       # or shengji_v1.raw_env(...): errors instead of losses
env.reset(seed=0)
single = gymnasium.make("shengji_env.shengji_v1:Shengji-v1")  # one seat, random opponents
tables = shengji_v1.vec_env(64, seed=0, decks=2)  # 64 tables stepped in one call (the core)
moves = shengji_v1.legal_moves(env)  # whole moves: shengji_v1.play(env, moves[0])
```

| | |
|---|---|
| API | PettingZoo AEC (``env``, ``raw_env``); gymnasium (``Shengji-v1``); ``vec_env`` |
| engines | ``engine="core"`` (compiled, the default where built) or ``"python"``: the same game |
| agents | ``player_0`` … ``player_3``; teams 0+2 and 1+3 |
| actions | ``Discrete(55)``: card types 0–53 one copy at a time, 54 = ``COMMIT`` (pass a bid) |
| observation | ``{"observation": float32 (1575,), "action_mask": int8 (55,)}``, seats relative |
| mask | exact: a card iff the selection plus it is part of a legal decision |
| rewards | at the end: levels (+3/+2/+1 kept deal; 1 + levels gained on a take-over) or points |
| episodes | ``episode="hand"`` (one deal) or ``"match"`` (until a team passes A, ±1) |
| options | ``RuleConfig`` fields, ``start_level="random"``, ``reward``, ``render_mode``, engine |
| whole moves | ``legal_moves``, ``move_features``, ``play``; ``information_state``, ``resample`` |

An agent decides a bid, a bury, a lead or a follow card by card and keeps the turn until it
commits (the env commits by itself when only ``COMMIT`` is left); only the acting agent's
mask has legal actions. Rewards come once, at the end of the episode, to all four agents.

Observation blocks (``shengji_env.encoding.OBS_LAYOUT``; counts are divided by the decks):

| block | columns | size | holds |
|---|---|---:|---|
| `hand` | 0–53 | 54 | own cards, count of each of the 54 card types / decks |
| `selection` | 54–107 | 54 | cards selected so far in this decision |
| `played` | 108–323 | 216 | cards each seat played this hand (4 relative seats x 54) |
| `trick` | 324–539 | 216 | the current trick, each seat's play (4 x 54) |
| `revealed` | 540–755 | 216 | cards failed throws showed that each seat still holds (4 x 54) |
| `kitty` | 756–809 | 54 | the kitty: picked up (bury) or buried (play), dealer only |
| `trump_cards` | 810–863 | 54 | 1 for each card type that is trump this hand |
| `card_order` | 864–917 | 54 | each card's rank within its effective suit, scaled to [0, 1] |
| `voids` | 918–937 | 20 | effective suits (4 plain, trump) each seat has shown void in (4 x 5) |
| `trump_suit` | 938–942 | 5 | one-hot: ♠ ♥ ♦ ♣ or no trump |
| `level` | 943–955 | 13 | one-hot: the hand's level rank 2..A |
| `team_levels` | 956–981 | 26 | one-hot: own team's level, then the other team's (2 x 13) |
| `bid_strength` | 982–989 | 8 | one-hot: strength of the standing declaration (0: none) |
| `bidder` | 990–994 | 5 | one-hot: relative seat of the standing declaration, or none |
| `dealer` | 995–999 | 5 | one-hot: relative seat of the dealer, or not yet known |
| `leader` | 1000–1003 | 4 | one-hot: relative seat that led the current trick |
| `phase` | 1004–1007 | 4 | one-hot: the decision asked (bid, bury, lead, follow) |
| `progress` | 1008–1012 | 5 | shares dealt, played; attackers' points, penalties; I attack |
| `trick_winner` | 1013–1016 | 4 | one-hot: relative seat winning the current trick so far |
| `card_counting` | 1017–1178 | 162 | per card: copies out, unbeaten in hand, copies above |
| `play_reading` | 1179–1556 | 378 | per card: led, winner's suit, above it, points… (7 x 54) |
| `card_context` | 1557–1574 | 18 | copies by suit, the trick's reading, decks one-hot |

A seat that takes several card steps in a row gets them as consecutive steps of its own
trajectory: the other agents' steps do not come between them, and the reward arrives once,
at the end, to every agent (``env.rewards`` at the last step; PettingZoo's ``last()``
returns it to each agent at its final turn).

Version history: v0 — the first version (1,017 observation columns; running on the
compiled core changed nothing in it). v1 — three blocks added after them, worked out from
them (``card_counting``, ``play_reading``, ``card_context``: 1,575 columns); the first
1,017 columns are v0's, unchanged.
"""

from __future__ import annotations

import gymnasium

from .env import env, raw_env
from .information import information_state, resample
from .moves import legal_moves, move_features, play
from .vector import TableBatch as vec_env
from .wrappers import SingleAgentEnv

GYMNASIUM_ID = "Shengji-v1"

if GYMNASIUM_ID not in gymnasium.registry:  # registration is this module's purpose
    gymnasium.register(id=GYMNASIUM_ID, entry_point=SingleAgentEnv)

__all__ = [
    "GYMNASIUM_ID",
    "SingleAgentEnv",
    "env",
    "information_state",
    "legal_moves",
    "move_features",
    "play",
    "raw_env",
    "resample",
    "vec_env",
]
