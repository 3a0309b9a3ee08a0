"""PaddlePaddle's file formats, one module per format (docs/formats.md):

    pdparams.py         `phi.save` / `phi.load` pickles: ``.pdparams``, ``.pdopt``, ...
    pdiparams.py        the tensor stream of ``.pdiparams`` (`save_combine` / `load_combine`)
    tensor_desc.py      its per-tensor ``TensorDesc`` protobuf message, by hand
    pir_json.py         PIR programs as ``.json`` (base_code version 4)
    framework_proto.py  the message classes of ``framework.proto``
    pdmodel.py          legacy ``.pdmodel`` ProgramDesc files, and ``translate_to_pir``
    inference_model.py  saved inference models: a program file plus its ``.pdiparams``

Formats sit above the IR, the legacy-op translation (runtime/compat) and the tensors, and below
the static API, nn, the optimizers and jit; nothing below imports them. Every reader bounds what
it reads by `phiops.runtime.file_limits`. Import the module you need: this package imports none
of them, so that reading one format does not load the others' dependencies (protobuf).
"""
