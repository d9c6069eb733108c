"""The shipped policies, one folder each (``policy.pt``, ``config.yaml``); see
:mod:`shengji_env.agents.shipped` and docs/models/."""
