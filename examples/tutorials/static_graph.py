"""Tutorial: a static-graph program, PaddlePaddle's "fit a line".

``paddle.enable_static()``, input variables from ``paddle.static.data``, a layer called in
static mode, a loss, ``SGD.minimize``, an ``Executor`` running the startup program once and the
main program per batch with ``feed`` and ``fetch_list``, then ``save_inference_model`` and
``load_inference_model`` for prediction. Synthetic housing-like data so that it runs offline.
Written for PaddlePaddle; only the import lines name phiops.
"""

import os
import tempfile

import numpy as np

import phiops as paddle

paddle.enable_static()
paddle.seed(7)

rng = np.random.default_rng(7)
FEATURES = 13
true_w = rng.normal(size=(FEATURES, 1)).astype("float32")
train_x = rng.normal(size=(1024, FEATURES)).astype("float32")
train_y = (train_x @ true_w + 0.5 + 0.01 * rng.normal(size=(1024, 1))).astype("float32")
test_x = rng.normal(size=(128, FEATURES)).astype("float32")
test_y = (test_x @ true_w + 0.5).astype("float32")

main_program = paddle.static.default_main_program()
startup_program = paddle.static.default_startup_program()

x = paddle.static.data(name="x", shape=[None, FEATURES], dtype="float32")
y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
linear = paddle.nn.Linear(FEATURES, 1)
y_predict = linear(x)
loss = paddle.nn.functional.mse_loss(y_predict, y)

sgd = paddle.optimizer.SGD(learning_rate=0.05)
sgd.minimize(loss)

exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup_program)

for epoch in range(10):
    order = rng.permutation(len(train_x))
    for start in range(0, len(order), 32):
        batch = order[start : start + 32]
        (loss_value,) = exe.run(
            main_program,
            feed={"x": train_x[batch], "y": train_y[batch]},
            fetch_list=[loss],
        )
    print(f"epoch {epoch}: loss {float(loss_value):.6f}")

with tempfile.TemporaryDirectory() as directory:
    path_prefix = os.path.join(directory, "fit_a_line")
    paddle.static.save_inference_model(path_prefix, [x], [y_predict], exe)
    program, feed_names, fetch_targets = paddle.static.load_inference_model(path_prefix, exe)
    (predicted,) = exe.run(program, feed={feed_names[0]: test_x}, fetch_list=fetch_targets)

test_mse = float(np.mean((predicted - test_y) ** 2))
print(f"test mse {test_mse:.6f}")
