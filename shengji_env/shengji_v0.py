"""Environment version 0, replaced by ``shengji_v1``: importing it fails with what changed.

v1 adds three observation blocks worked out from v0's (card counting and the reading of
the trick) after its 1,017 columns, which are unchanged; nothing else changed.
"""

raise ImportError(
    "shengji_env.shengji_v0 is replaced by shengji_env.shengji_v1: the observation gained "
    "three blocks after v0's 1,017 columns (1,575 now); pin an earlier release for v0"
)
