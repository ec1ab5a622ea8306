"""Hugging Face `transformers` models for the example suite (zoo.toml), built from their
configs offline with random weights: nothing is downloaded. Each family comes at two sizes,
both tiny enough for a CPU: the suite measures how torch.compile treats the architectures
(attention, rotary embeddings, encoder-decoder, patch embedding), not their quality.

`transformers` is an optional extra of this example, not a dependency of tct:
    pip install transformers
"""
import torch

# (layers, hidden size, heads): "tiny" and "small".
SIZES = {"tiny": (2, 64, 2), "small": (4, 128, 4)}
VOCAB = 1000


def _config(family, size):
    import transformers as tf

    layers, hidden, heads = SIZES[size]
    ff = hidden * 4
    if family == "gpt2":
        return tf.GPT2Config(n_layer=layers, n_embd=hidden, n_head=heads, n_positions=256, vocab_size=VOCAB,
                             use_cache=False, bos_token_id=0, eos_token_id=0), tf.GPT2LMHeadModel
    if family == "bert":
        return tf.BertConfig(num_hidden_layers=layers, hidden_size=hidden, num_attention_heads=heads,
                             intermediate_size=ff, vocab_size=VOCAB, max_position_embeddings=256), tf.BertModel
    if family == "llama":
        return tf.LlamaConfig(num_hidden_layers=layers, hidden_size=hidden, num_attention_heads=heads,
                              num_key_value_heads=heads, intermediate_size=ff, vocab_size=VOCAB,
                              max_position_embeddings=256, use_cache=False), tf.LlamaForCausalLM
    if family == "t5":
        return tf.T5Config(num_layers=layers, num_decoder_layers=layers, d_model=hidden, d_kv=hidden // heads,
                           num_heads=heads, d_ff=ff, vocab_size=VOCAB, use_cache=False), tf.T5Model
    if family == "vit":
        return tf.ViTConfig(image_size=64, patch_size=8, num_hidden_layers=layers, hidden_size=hidden,
                            num_attention_heads=heads, intermediate_size=ff), tf.ViTModel
    raise ValueError(f"unknown family {family!r}: gpt2, bert, llama, t5 or vit")


def make(family="gpt2", size="tiny", batch=1, seq=64):
    """(model, args, kwargs) for `tct`: the model in eval mode and one batch of inputs."""
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}: {', '.join(SIZES)}")
    torch.manual_seed(0)
    config, cls = _config(family, size)
    model = cls(config).eval()
    if family == "vit":
        return model, (torch.randn(batch, 3, config.image_size, config.image_size),), {}
    ids = torch.randint(0, VOCAB, (batch, seq))
    if family == "t5":
        return model, (), {"input_ids": ids, "decoder_input_ids": ids[:, : seq // 2]}
    return model, (ids,), {}
