"""deformable_conv and deformable_conv_grad against PaddlePaddle 3.3.1 itself: every case
tests/tools/make_deform24_fixtures.py records, run live on both (results, dtypes, shapes and
gradients), and the recording in tests/data/deform24/ checked against a fresh run. Runs only
where PaddlePaddle is installed."""

from __future__ import annotations

from tests.parity.family import family_tests

test_phiops_equals_paddle_live, test_the_recording_is_what_paddle_gives_now = family_tests(
    "deform24"
)
