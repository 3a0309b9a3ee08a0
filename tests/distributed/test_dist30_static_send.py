"""paddle.distributed.send/isend in a static program being built build the p_send op, as
PaddlePaddle's static send appends its send_v2; recv into a Value builds p_recv and assign_out_
into it (PaddlePaddle 3.3.1's PIR builder refuses its legacy recv_v2 there: "we can only get
name of Value from DataOp/..."). One process (a world of one rank); the program on 2 ranks is
tests/distributed/test_dist30_ops.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
import phiops.distributed as dist
from phiops import _C_ops
from phiops.runtime.comm import COMM_CONTEXTS


@pytest.fixture
def static_mode():
    COMM_CONTEXTS.clear()
    paddle.enable_static()
    yield
    paddle.disable_static()
    COMM_CONTEXTS.clear()


def test_static_send_and_isend_build_p_send_and_the_program_runs(static_mode) -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        assert dist.send(x, dst=0) is None
        dist.isend(x + 1.0, dst=0)
        first = _C_ops.p_recv(0, 0, paddle.float32, True)
        second = _C_ops.p_recv(0, 0, paddle.float32, True)
    assert str(main).count('"pd_op.p_send"') == 2
    feed = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = paddle.static.Executor().run(main, feed={"x": feed}, fetch_list=[first, second])
    np.testing.assert_array_equal(got[0], feed)
    np.testing.assert_array_equal(got[1], feed + 1)


def test_static_recv_into_a_value_writes_it_for_the_ops_after(static_mode) -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        dist.send(x * 2.0, dst=0)
        y = paddle.zeros([2, 3], "float32")
        assert dist.recv(y, src=0) is None
        after = y + 1.0
    text = str(main)
    assert '"pd_op.p_recv"' in text and '"pd_op.assign_out_"' in text
    feed = np.arange(6, dtype=np.float32).reshape(2, 3)
    got_y, got_after = paddle.static.Executor().run(main, feed={"x": feed}, fetch_list=[y, after])
    np.testing.assert_array_equal(got_y, feed * 2)
    np.testing.assert_array_equal(got_after, feed * 2 + 1)
