"""sb3-contrib's MaskablePPO trains on the single-agent wrapper (the optional ``sb3`` extra)."""

import numpy as np
import pytest

from shengji_env.wrappers import SingleAgentEnv

sb3_contrib = pytest.importorskip("sb3_contrib")


@pytest.mark.slow
def test_maskable_ppo_trains_a_few_thousand_steps():
    env = SingleAgentEnv(decks=1, learner_seat="random")
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=2, seed=0, device="cpu"
    )
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    observation, _ = env.reset(seed=1)
    done = False
    while not done:
        mask = env.action_masks()
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        assert mask[int(action)], "the masked policy only picks legal actions"
        observation, reward, done, _, _ = env.step(int(action))
    assert np.isfinite(reward)
