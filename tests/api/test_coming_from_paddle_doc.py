"""docs/coming_from_paddle.md is what tests/tools/coming_from_paddle.py writes from today's code:
it cannot go stale."""

from __future__ import annotations

from tests.tools.coming_from_paddle import PAGE, render


def test_the_page_is_up_to_date() -> None:
    assert PAGE.read_text(encoding="utf-8") == render(), (
        "docs/coming_from_paddle.md is stale: run `make generate` "
        "(python -m tests.tools.coming_from_paddle)"
    )


def test_the_page_counts_every_recorded_name() -> None:
    from tests import paddle_api

    text = render()
    for module in paddle_api.modules():
        assert f"## `{module}`\n\n{len(paddle_api.names(module))} names in PaddlePaddle" in text
