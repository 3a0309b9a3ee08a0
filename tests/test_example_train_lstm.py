"""examples/train_lstm.py runs and does what it says (tests/test_examples.py's style)."""

from __future__ import annotations

from tests.test_examples import import_example, run_example


def test_train_lstm_reaches_90_percent_on_padded_sequences() -> None:
    output = run_example("train_lstm.py")
    lines = output.strip().splitlines()
    losses = [float(line.split()[-1]) for line in lines if line.startswith("epoch")]
    assert len(losses) == 6 and losses[-1] < losses[0] / 2, output
    accuracy = float(lines[-1].split()[2])
    assert accuracy >= 0.9, output


def test_the_padding_is_noise_only_sequence_length_hides() -> None:
    import numpy as np

    import phiops as paddle

    train_lstm = import_example("train_lstm")
    data = train_lstm.PaddedSequences(64, 5)
    x, length, label = data[3]
    assert x.shape == (16, 3) and 4 <= length <= 16
    assert label == np.argmax(x[:length].sum(axis=0))
    paddle.seed(0)
    model = train_lstm.SequenceClassifier(8, 3)
    model.eval()
    batch = paddle.to_tensor(np.stack([data[i][0] for i in range(4)]))
    lengths = paddle.to_tensor(np.array([data[i][1] for i in range(4)]))
    noisy = batch.numpy().copy()
    for i in range(4):
        noisy[i, int(lengths.numpy()[i]):] = 100.0
    np.testing.assert_allclose(
        model(paddle.to_tensor(noisy), lengths).numpy(), model(batch, lengths).numpy(), rtol=1e-5, atol=1e-6
    )
