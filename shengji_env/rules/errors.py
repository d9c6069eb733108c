"""Errors raised by the rules engine."""


class IllegalMoveError(ValueError):
    """An action that the rules forbid; the message names the rule (docs/rules.md §) it breaks.

    The state that raised it is left unchanged.
    """
