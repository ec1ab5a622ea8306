"""The calibration and validation sets of `tct expect`: (name, target, params) rows.

Kept apart: the constants are fitted on CALIBRATION only (fit.py); VALIDATION holds other
functions of the same kinds, or the same function at a shape far from the calibrated one.
Small sizes, so one pass finishes in ~20 minutes on a loaded 2-core CPU.
"""
W = "bench/calibration/workloads.py"

CALIBRATION = [
    ("poly_chain n40", f"{W}:poly_chain", {"n_ops": 40}),
    ("builtin tiny_ops", "builtin:tiny_ops", {}),
    ("gelu_tanh 1M", f"{W}:gelu_tanh", {}),
    ("rmsnorm 2048x512", f"{W}:rmsnorm", {}),
    ("linear_stack b256", f"{W}:linear_stack", {}),
    ("builtin mlp b8", "builtin:mlp", {"batch": 8}),
    ("conv_block c32", f"{W}:conv_block", {}),
    ("attention s128", f"{W}:attention", {}),
]

VALIDATION = [
    ("trig_chain n30", f"{W}:trig_chain", {}),
    ("small_mlp_loop", f"{W}:small_mlp_loop", {}),
    ("swish_residual 2M", f"{W}:swish_residual", {}),
    ("layernorm_softmax", f"{W}:layernorm_softmax", {}),
    ("bmm_gated", f"{W}:bmm_gated", {}),
    ("builtin mlp b512", "builtin:mlp", {"batch": 512}),
    ("depthwise_block", f"{W}:depthwise_block", {}),
    ("builtin convnet", "builtin:convnet", {}),
    ("builtin transformer_block", "builtin:transformer_block", {}),
    ("poly_chain n200 size4096", f"{W}:poly_chain", {"n_ops": 200, "size": 4096}),
]

# Optional extra (--transformers): real architectures from small configs.
TRANSFORMERS = [
    ("hf gpt2", f"{W}:hf_model", {"arch": "gpt2"}),
    ("hf bert", f"{W}:hf_model", {"arch": "bert"}),
    ("hf llama", f"{W}:hf_model", {"arch": "llama"}),
]
