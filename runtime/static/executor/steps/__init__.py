"""The steps an op becomes in a plan, by kind of op: ``kernel`` (a ``pd_op`` run by its planned
kernel), ``late`` (one planned when it runs), ``control_flow`` (``pd_op.if``, ``pd_op.while`` and
the ``cf`` stack ops) and ``builtin`` (framework ops that run no kernel); ``step`` is what they
all build and how a list of steps runs."""
