"""examples/train_transformer.py runs and does what it says (tests/test_examples.py's style)."""

from __future__ import annotations

import re

from tests.test_examples import import_example, run_example


def test_train_transformer_reaches_95_percent_with_model_fit() -> None:
    output = run_example("train_transformer.py")
    assert re.search(r"^Epoch 4/4$", output, re.M), output
    assert re.search(
        r"^step 16/16 - loss: \S+ - acc: \d\.\d{4} - \d+(ms|us|s)/step$", output, re.M
    ), output
    assert output.count("Eval samples: 256") == 4, output
    accuracy = float(output.strip().splitlines()[-1].split()[-1])
    assert accuracy >= 0.95, output


def test_the_class_is_the_one_keyword_in_the_sequence() -> None:
    example = import_example("train_transformer")
    data = example.KeywordSequences(32, 3)
    for i in range(32):
        tokens, label = data[i]
        keywords = tokens[tokens < example.KEYWORDS]
        assert len(keywords) == 1 and keywords[0] == label[0]
