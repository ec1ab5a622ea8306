"""tct explain's counts on PyTorch CI's dynamobench Hugging Face models, against torch's own
counters of the same model in a fresh process. Not part of scripts/test.sh: 27 models take
minutes.

The models are built as pytorch/benchmarks/dynamo/huggingface.py builds them
(`model_cls(model_cls.config_class())`, random weights, no download; `pad_token_id = 0` for
the GPT-2/GPT-Neo/GPT-J sequence classifiers and Roberta; `use_cache = False`; the inputs of
its generate_inputs_for_model: input_ids, decoder_input_ids for the seq2seq families, and the
labels of the loss), with small configs (2 layers, width 64, vocabulary 512, sequence 32,
batch 2) so that a model compiles in seconds on a CPU. The models are the class names of its
CI list (benchmarks/dynamo/huggingface_models_list.txt) that transformers here can build;
DistillGPT2, which the CI list builds from the `distilgpt2` config it downloads, is built from
GPT2Config() (GPT2LMHeadModel). A model the installed transformers cannot build is listed as
skipped with its error (built, and run once eagerly).

For each model, in fresh processes:
  tct:   tct explain bench/dynamobench_hf.py:make --param name=NAME --json: graph_break_count,
         graph_count, skipped_frames (the logged compiled run, backend="eager", 2 calls)
  torch: the same model under torch.compile(backend="eager"), called twice under
         torch.no_grad(), torch._dynamo.utils.counters: graph_break (summed),
         stats.unique_graphs, frames total - ok

    .venv/bin/python bench/dynamobench_hf.py [--python PY] [--only A,B] [--tct build/tct]

Measured on the shared 2-core machine (load average 8, other builds running), 30-70 s a model,
identical on torch 2.13.0+cpu and 2.15.0+cu132 (transformers 5.24.0, which cannot build
XLNetLMHeadModel from its config: skipped): every count equal on 27 of 27 models.

    model                                      breaks tct/torch graphs tct/torch skipped tct/torch
    AlbertForMaskedLM                                       0/0              1/1               0/0
    AlbertForQuestionAnswering                              0/0              1/1               0/0
    BartForCausalLM                                         0/0              1/1               0/0
    BartForConditionalGeneration                            0/0              1/1               0/0
    BertForMaskedLM                                         0/0              1/1               0/0
    BertForQuestionAnswering                                0/0              1/1               0/0
    BlenderbotForCausalLM                                   0/0              1/1               0/0
    BlenderbotForConditionalGeneration                      0/0              1/1               0/0
    BlenderbotSmallForCausalLM                              0/0              1/1               0/0
    BlenderbotSmallForConditionalGeneration                 0/0              1/1               0/0
    DebertaV2ForMaskedLM                                    0/0              1/1               0/0
    DebertaV2ForQuestionAnswering                           0/0              1/1               0/0
    DistilBertForMaskedLM                                   0/0              1/1               0/0
    DistilBertForQuestionAnswering                          0/0              1/1               0/0
    DistillGPT2                                             3/3              2/2               0/0
    ElectraForCausalLM                                      0/0              1/1               0/0
    ElectraForQuestionAnswering                             0/0              1/1               0/0
    GPT2ForSequenceClassification                           0/0              2/2               0/0
    GPTJForCausalLM                                         0/0              1/1               0/0
    GPTJForQuestionAnswering                                0/0              1/1               0/0
    GPTNeoForCausalLM                                       0/0              1/1               0/0
    GPTNeoForSequenceClassification                         0/0              2/2               0/0
    LayoutLMForMaskedLM                                     0/0              1/1               0/0
    LayoutLMForSequenceClassification                       0/0              2/2               0/0
    M2M100ForConditionalGeneration                          0/0              1/1               0/0
    MBartForCausalLM                                        0/0              1/1               0/0
    MBartForConditionalGeneration                           0/0              1/1               0/0

GPT-2's "cannot resume ... skipping the rest of the function" record is no graph break, as torch
counts it (issue 43). The three sequence classifiers recompile on their second call
(transformers sets `config.problem_type` on the first call with labels: guard
`self.config.problem_type is None`), which torch counts in unique_graphs: tct's logged run is
now the target's first calls, as the user's first compiled calls are, so it sees that
recompile too (before, explain's own call came first and tct counted 1 graph).

--python is the interpreter of the models (its torch and transformers): .venv's by default;
for torch 2.15.0, .venv-torch2.15/bin/python once transformers is installed there too
(the same pins as requirements-dev.txt's transformers, e.g. PIP_CONSTRAINT=/dev/null
.venv-torch2.15/bin/pip install transformers==5.24.0).
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The class names of benchmarks/dynamo/huggingface_models_list.txt without a config download
# (its EXTRA_MODELS and HF_LLM_MODELS download theirs; CamemBert names no class), in its order.
CI_MODELS = [
    "AlbertForMaskedLM", "AlbertForQuestionAnswering", "BartForCausalLM", "BartForConditionalGeneration",
    "BertForMaskedLM", "BertForQuestionAnswering", "BlenderbotForCausalLM", "BlenderbotForConditionalGeneration",
    "BlenderbotSmallForCausalLM", "BlenderbotSmallForConditionalGeneration", "DebertaV2ForMaskedLM",
    "DebertaV2ForQuestionAnswering", "DistilBertForMaskedLM", "DistilBertForQuestionAnswering", "DistillGPT2",
    "ElectraForCausalLM", "ElectraForQuestionAnswering", "GPT2ForSequenceClassification", "GPTJForCausalLM",
    "GPTJForQuestionAnswering", "GPTNeoForCausalLM", "GPTNeoForSequenceClassification", "LayoutLMForMaskedLM",
    "LayoutLMForSequenceClassification", "M2M100ForConditionalGeneration", "MBartForCausalLM",
    "MBartForConditionalGeneration", "MT5ForConditionalGeneration", "MegatronBertForCausalLM",
    "MegatronBertForQuestionAnswering", "MobileBertForMaskedLM", "MobileBertForQuestionAnswering", "OPTForCausalLM",
    "PLBartForCausalLM", "PLBartForConditionalGeneration", "PegasusForCausalLM", "PegasusForConditionalGeneration",
    "RobertaForCausalLM", "RobertaForQuestionAnswering", "T5ForConditionalGeneration", "TrOCRForCausalLM",
    "XGLMForCausalLM", "XLNetLMHeadModel",
]
# How many of them the table takes (issue 43: "the 27 models of its CI list that transformers
# here can build"): the first 27 that build, in the list's order.
TAKE = 27

SEQ, BATCH, VOCAB, WIDTH, HEADS = 32, 2, 512, 64, 4

# Config attributes that size a model, by their names across the families (set where present).
LAYERS = ("num_hidden_layers", "n_layer", "num_layers", "encoder_layers", "decoder_layers", "num_decoder_layers")
WIDTHS = ("hidden_size", "d_model", "n_embd", "embedding_size", "true_hidden_size", "intra_bottleneck_size",
          "word_embed_proj_dim")
FFN = ("intermediate_size", "ffn_dim", "encoder_ffn_dim", "decoder_ffn_dim", "d_ff", "d_inner", "n_inner")
ATTN = ("num_attention_heads", "n_head", "encoder_attention_heads", "decoder_attention_heads", "num_heads")


def small(config):
    for names, value in ((LAYERS, 2), (WIDTHS, WIDTH), (FFN, 2 * WIDTH), (ATTN, HEADS)):
        for n in names:
            if isinstance(getattr(config, n, None), int):
                setattr(config, n, value)
    if hasattr(config, "vocab_size"):
        config.vocab_size = VOCAB
    for n in ("d_kv", "d_head"):  # T5/MT5's and XLNet's per-head width
        if isinstance(getattr(config, n, None), int):
            setattr(config, n, WIDTH // HEADS)
    if isinstance(getattr(config, "rotary_dim", None), int):  # GPT-J
        config.rotary_dim = WIDTH // HEADS // 2
    if hasattr(config, "attention_types"):  # GPT-Neo: one global, one local layer
        config.attention_types = [[["global", "local"], 1]]
        config.attention_layers = ["global", "local"]
    for n in ("max_position_embeddings", "n_positions", "max_target_positions", "max_source_positions"):
        if isinstance(getattr(config, n, None), int):
            setattr(config, n, max(getattr(config, n), 4 * SEQ))
    return config


def model_and_config(name):
    import transformers
    if name == "DistillGPT2":
        config = transformers.GPT2Config()
        cls = transformers.GPT2LMHeadModel
    else:
        cls = getattr(transformers, name)
        config = cls.config_class()
        if name.startswith(("GPT2ForSequence", "GPTNeoForSequence", "GPTJForSequence", "Roberta")):
            config.pad_token_id = 0
    config = small(config)
    if hasattr(config, "use_cache"):
        config.use_cache = False
    return cls, config


def make(name):
    """The target: (model, (), inputs) as huggingface.py's generate_inputs_for_model makes them."""
    import torch
    torch.manual_seed(1337)
    cls, config = model_and_config(name)
    model = cls(config).eval()
    vocab = model.config.vocab_size
    if name.startswith("Roberta"):
        ids = torch.randint(0, 1, (BATCH, SEQ))
    else:
        ids = torch.randint(0, vocab, (BATCH, SEQ))
    if "Bart" in name and getattr(model.config, "eos_token_id", None) is not None:
        ids[:, -1] = model.config.eos_token_id
    inputs = {"input_ids": ids}
    if name.startswith(("T5", "M2M100", "MT5")) or name in ("BlenderbotForConditionalGeneration",):
        inputs["decoder_input_ids"] = ids
    if name.endswith("QuestionAnswering"):
        inputs["start_positions"] = torch.randint(0, SEQ, (BATCH,))
        inputs["end_positions"] = torch.randint(0, SEQ, (BATCH,))
    elif name.endswith(("MaskedLM", "HeadModel", "CausalLM")) or name == "DistillGPT2":
        inputs["labels"] = torch.randint(0, vocab, (BATCH, SEQ))
    elif name.endswith("SequenceClassification"):
        inputs["labels"] = torch.randint(0, model.config.num_labels - 1, (BATCH,))
    elif name.endswith("ForConditionalGeneration"):
        inputs["labels"] = torch.randint(0, vocab - 1, (BATCH, SEQ))
    return model, (), inputs


def oracle(name):
    """torch's own counters of the model compiled with backend="eager", called twice (as tct
    explain's logged run), in this fresh process."""
    import torch
    from torch._dynamo.utils import counters
    model, args, kwargs = make(name)
    counters.clear()
    compiled = torch.compile(model, backend="eager")
    with torch.no_grad():
        for _ in range(2):
            compiled(*args, **kwargs)
    frames = counters["frames"]
    return {"graph_breaks": sum(counters["graph_break"].values()), "graphs": counters["stats"]["unique_graphs"],
            "skipped_frames": frames["total"] - frames["ok"]}


def run(cmd, env=None, timeout=900):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    return p, time.monotonic() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=os.path.join(ROOT, ".venv", "bin", "python"))
    ap.add_argument("--tct", default=os.path.join(ROOT, "build", "tct"))
    ap.add_argument("--only", default="")
    ap.add_argument("--oracle", help=argparse.SUPPRESS)
    ap.add_argument("--builds", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.oracle:
        print(json.dumps(oracle(a.oracle)))
        return
    if a.builds:  # which models this interpreter's transformers can build and run eagerly
        import torch
        for name in a.builds.split(","):
            try:
                model, args, kwargs = make(name)
                with torch.no_grad():
                    model(*args, **kwargs)
                print(json.dumps({"name": name, "ok": True}))
            except Exception as e:  # noqa: BLE001 - the reason is what the table reports
                print(json.dumps({"name": name, "ok": False, "error": f"{type(e).__name__}: {e}"[:120]}))
        return
    here = os.path.abspath(__file__)
    names = [n for n in a.only.split(",") if n] or CI_MODELS
    p, _ = run([a.python, here, "--builds", ",".join(names)])
    built = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    if not built:
        sys.exit(f"cannot build any model with {a.python}: {p.stderr[-2000:]}")
    take = [b["name"] for b in built if b["ok"]][:TAKE if not a.only else None]
    version = subprocess.run([a.python, "-c", "import torch, transformers; print(torch.__version__, "
                              "transformers.__version__)"], capture_output=True, text=True).stdout.split()
    print(f"torch {version[0]}, transformers {version[1]}: {len(take)} models "
          f"(skipped: {', '.join(b['name'] for b in built if not b['ok']) or 'none'})")
    print(f"{'model':42} {'breaks tct/torch':>16} {'graphs tct/torch':>16} {'skipped tct/torch':>17}  s")
    agree = 0
    for name in take:
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.environ.get("TORCHINDUCTOR_CACHE_DIR", "/tmp/tct-dynamobench"))
        t, secs = run([a.tct, "explain", f"{here}:make", "--param", f"name={name}", "--json", "--quiet",
                       "--python", a.python], env=env)
        o, secs2 = run([a.python, here, "--oracle", name], env=env)
        try:
            doc = json.loads(t.stdout)["explain"]
            mine = (doc["graph_break_count"], doc["graph_count"], len(doc["skipped_frames"]))
        except (ValueError, KeyError, TypeError):
            print(f"{name:42} tct failed (exit {t.returncode}): {t.stderr.strip().splitlines()[-1:]}")
            continue
        try:
            ref = json.loads(o.stdout.strip().splitlines()[-1])
            theirs = (ref["graph_breaks"], ref["graphs"], ref["skipped_frames"])
        except (ValueError, KeyError, IndexError):
            print(f"{name:42} torch's counters failed: {o.stderr.strip().splitlines()[-1:]}")
            continue
        same = mine == theirs
        agree += same
        cells = [f"{m}/{r}" for m, r in zip(mine, theirs)]
        print(f"{name:42} {cells[0]:>16} {cells[1]:>16} {cells[2]:>17}  {secs + secs2:.0f}{'' if same else '  DIFFERS'}",
              flush=True)
    print(f"every count equal on {agree} of {len(take)} models")


if __name__ == "__main__":
    main()
