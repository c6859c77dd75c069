"""A short self-play loop on the PettingZoo environment: every seat shares one linear softmax
policy over the action table, trained by REINFORCE on the settlement (relative to the table).

    python docs/examples/research/self_play.py [--game doppelkopf] [--deals 200]

It trains nothing heavy (a few hundred deals, numpy only); it shows how the observation,
the action mask and the rewards fit together.
"""

import argparse

import numpy as np

from stichwerk.research import env


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask == 1, logits, -np.inf)
    z = np.exp(z - z.max())
    return z / z.sum()


def self_play(game: str, deals: int, seed: int = 0, lr: float = 0.01) -> list[float]:
    """Play ``deals`` deals; return seat 0's reward per deal."""
    table = env(game, seed=seed, reward="relative")
    table.reset()
    space = table.observation_space(table.possible_agents[0])
    weights = np.zeros((space["action_mask"].shape[0], space["observation"].shape[0]))
    rng = np.random.default_rng(seed)
    history: list[float] = []
    for _ in range(deals):
        table.reset()
        steps: dict[str, list[tuple[np.ndarray, np.ndarray, int]]] = {}
        for agent in table.agent_iter():
            obs, _, done, _, _ = table.last()
            if done:
                table.step(None)
                continue
            probs = masked_softmax(weights @ obs["observation"], obs["action_mask"])
            action = int(rng.choice(len(probs), p=probs))
            steps.setdefault(agent, []).append((obs["observation"], probs, action))
            table.step(action)
        rewards = table.unwrapped.table.rewards("relative")
        scale = max(1.0, *(abs(r) for r in rewards))
        for agent, trajectory in steps.items():
            ret = rewards[table.possible_agents.index(agent)] / scale
            for x, probs, action in trajectory:
                grad = -probs[:, None] * x[None, :]
                grad[action] += x
                weights += lr * ret * grad
        history.append(rewards[0])
    return history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cego")
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    rewards = self_play(args.game, args.deals)
    half = len(rewards) // 2
    print(f"{args.game}: {len(rewards)} deals of self-play")
    print(f"seat 0, mean relative reward: first half {np.mean(rewards[:half]):+.2f}, "
          f"second half {np.mean(rewards[half:]):+.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
