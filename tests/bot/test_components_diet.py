"""bot/components_diet.py: length-bucketed batches for DIET (fewer padded tokens, same examples)."""
import numpy as np

from bot.components_diet import bucketed_order


def padded_tokens(lengths, order, batch_size):
    x = lengths[order]
    return sum(len(x[i:i + batch_size]) * x[i:i + batch_size].max() for i in range(0, len(x), batch_size))


def test_the_bucketed_order_is_a_permutation_that_keeps_the_partial_batch_last():
    rng = np.random.default_rng(3)
    lengths = rng.integers(2, 36, size=1003)
    order = bucketed_order(lengths, 64, rng)
    assert sorted(order.tolist()) == list(range(1003))
    assert len(order[-(1003 % 64):]) == 1003 % 64
    # the last batch holds the examples left over by the last window, not a shuffled full batch
    last_window_start = (1003 // (64 * 8)) * 64 * 8
    assert set(order[-(1003 % 64):].tolist()) <= set(range(last_window_start, 1003))


def test_bucketing_pads_far_less_than_a_shuffled_order_on_short_and_long_messages():
    rng = np.random.default_rng(5)
    lengths = np.concatenate([rng.integers(3, 10, size=2400), rng.integers(18, 36, size=400)])
    rng.shuffle(lengths)
    shuffled = padded_tokens(lengths, np.arange(len(lengths)), 128)
    bucketed = padded_tokens(lengths, bucketed_order(lengths, 128, rng), 128)
    assert bucketed < 0.6 * shuffled
    assert bucketed >= lengths.sum()


def test_every_batch_is_drawn_from_one_window_of_examples():
    rng = np.random.default_rng(1)
    lengths = rng.integers(1, 30, size=640)
    order = bucketed_order(lengths, 32, rng, window=4)
    for i in range(0, 640, 32):
        windows = {j // (32 * 4) for j in order[i:i + 32]}
        assert len(windows) == 1
