"""What a team did in a hand, beside the score: whether it declared, whether it dealt,
the points it buried, the throws it tried and how many failed. The arena reports these
per agent, so a policy that wins by an artefact (never declaring, say) shows at once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shengji_env.rules import Game, trick_points
from shengji_env.rules.patterns import as_combination


@dataclass(frozen=True)
class TeamBehaviour:
    """One team (0: seats 0 and 2, 1: seats 1 and 3) in one finished hand."""

    declared: bool
    dealt: bool
    bury_points: int  # points in the kitty it buried (0 unless it dealt)
    throws: int  # leads of more than one combination it tried, failed ones included
    failed_throws: int


def failed_leads(game: Game, seat: int) -> list[bool]:
    """For each trick ``seat`` led in ``game``, in order: whether its lead was a failed throw."""
    return [trick.attempt is not None for trick in game.tricks if trick.leader == seat]


def team_behaviour(game: Game, team: int) -> TeamBehaviour:
    """``team``'s behaviour in ``game``, a finished hand."""
    assert game.ctx is not None and game.dealer is not None
    throws = failed = 0
    for trick in game.tricks:
        if trick.leader % 2 != team:
            continue
        if trick.attempt is not None:
            throws, failed = throws + 1, failed + 1
        elif as_combination(list(trick.plays[0]), game.ctx) is None:
            throws += 1
    dealt = game.dealer % 2 == team
    return TeamBehaviour(
        declared=any(bid.seat % 2 == team for bid in game.bids),
        dealt=dealt,
        bury_points=trick_points([game.kitty]) if dealt else 0,
        throws=throws,
        failed_throws=failed,
    )


@dataclass(frozen=True)
class BehaviourSummary:
    """An agent's behaviour over its hands in an arena run."""

    hands: int
    declaration_rate: float  # hands its team declared in
    dealt_share: float  # hands its team dealt
    bury_points: float  # mean points buried, over the hands it dealt
    throws_per_hand: float
    failed_throw_share: float  # of the throws it tried

    @classmethod
    def of(cls, teams: Iterable[TeamBehaviour]) -> BehaviourSummary:
        seen = list(teams)
        if not seen:
            nan = float("nan")
            return cls(0, nan, nan, nan, nan, nan)
        dealt = [team for team in seen if team.dealt]
        throws = sum(team.throws for team in seen)
        return cls(
            hands=len(seen),
            declaration_rate=sum(team.declared for team in seen) / len(seen),
            dealt_share=len(dealt) / len(seen),
            bury_points=sum(t.bury_points for t in dealt) / len(dealt) if dealt else float("nan"),
            throws_per_hand=throws / len(seen),
            failed_throw_share=(
                sum(team.failed_throws for team in seen) / throws if throws else float("nan")
            ),
        )
