"""The calibration and validation sets of `tct expect`: (name, target, params) rows.

Kept apart: the constants are fitted on CALIBRATION only (fit.py); VALIDATION holds other
functions of the same kinds, or the same function at a shape far from the calibrated one.
Small sizes: each set takes ~10-15 minutes on a 2-core CPU (measure.py --sets, --resume).
"""
W = "bench/calibration/workloads.py"

CALIBRATION = [
    ("poly_chain n40", f"{W}:poly_chain", {"n_ops": 40}),
    ("poly_chain n12 size16384", f"{W}:poly_chain", {"n_ops": 12, "size": 16384}),
    ("builtin tiny_ops", "builtin:tiny_ops", {}),
    ("builtin tiny_ops n20", "builtin:tiny_ops", {"n_ops": 20, "size": 512}),
    ("gelu_tanh 1M", f"{W}:gelu_tanh", {}),
    ("gelu_tanh 64K", f"{W}:gelu_tanh", {"numel": 1 << 16}),
    ("rmsnorm 2048x512", f"{W}:rmsnorm", {}),
    ("rmsnorm 64x256", f"{W}:rmsnorm", {"rows": 64, "dim": 256}),
    ("row_stats 512x1024", f"{W}:row_stats", {}),
    ("linear_stack b256", f"{W}:linear_stack", {}),
    ("linear_stack b4 w128", f"{W}:linear_stack", {"batch": 4, "width": 128}),
    ("builtin mlp b8", "builtin:mlp", {"batch": 8}),
    ("ffn_residual b64", f"{W}:ffn_residual", {}),
    ("conv_block c32", f"{W}:conv_block", {}),
    ("conv_block c8 s16", f"{W}:conv_block", {"channels": 8, "size": 16, "batch": 2}),
    ("attention s128", f"{W}:attention", {}),
    ("attention s32 b1", f"{W}:attention", {"seq": 32, "batch": 1, "dim": 64}),
    ("attention s64 d64", f"{W}:attention", {"seq": 64, "dim": 64}),
    ("linear_stack b2 w32 d8", f"{W}:linear_stack", {"batch": 2, "width": 32, "depth": 8}),
    ("conv_block c16 s24", f"{W}:conv_block", {"channels": 16, "size": 24}),
    ("row_stats 64x256", f"{W}:row_stats", {"rows": 64, "dim": 256}),
    ("gelu_tanh 256K", f"{W}:gelu_tanh", {"numel": 1 << 18}),
    # Many elementwise ops on mid-size tensors: the fused kernel still does every op's work.
    ("builtin tiny_ops n120 size8192", "builtin:tiny_ops", {"n_ops": 120, "size": 8192}),
    ("builtin tiny_ops n40 8x4096", "builtin:tiny_ops", {"n_ops": 40, "batch": 8, "size": 4096}),
    # Many plain elementwise ops on tensors that stay in cache: the fused kernel's own work per element.
    ("clamp_chain n96 size16384", f"{W}:clamp_chain", {}),
    ("clamp_chain n48 size65536", f"{W}:clamp_chain", {"n_ops": 48, "size": 65536}),
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

# Optional extra (--transformers): real architectures from small configs, other ones in each set.
# Validation holds the five a user tried (GPT-2, BERT, Llama, T5, ViT).
TRANSFORMERS_CALIBRATION = [
    ("hf opt", f"{W}:hf_model", {"arch": "opt"}),
    ("hf gpt_neox", f"{W}:hf_model", {"arch": "gpt_neox"}),
    ("hf qwen2", f"{W}:hf_model", {"arch": "qwen2"}),
]
TRANSFORMERS_VALIDATION = [
    ("hf gpt2", f"{W}:hf_model", {"arch": "gpt2"}),
    ("hf bert", f"{W}:hf_model", {"arch": "bert"}),
    ("hf llama", f"{W}:hf_model", {"arch": "llama"}),
    ("hf t5", f"{W}:hf_model", {"arch": "t5"}),
    ("hf vit", f"{W}:hf_model", {"arch": "vit"}),
]
