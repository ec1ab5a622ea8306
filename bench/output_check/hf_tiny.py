"""Tiny Hugging Face models with random weights, built offline from configs: targets for
bench/output_check/bench_output_check.py (`tct bench bench/output_check/hf_tiny.py:gpt2`).
Needs `transformers` (requirements-dev.txt); tct itself does not."""
import torch

SEQ = 16
VOCAB = 128


def _ids(batch=2, seq=SEQ):
    return torch.randint(0, VOCAB, (batch, seq))


def gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel
    torch.manual_seed(0)
    cfg = GPT2Config(n_layer=2, n_embd=64, n_head=4, vocab_size=VOCAB, n_positions=64,
                     bos_token_id=0, eos_token_id=0)
    return GPT2LMHeadModel(cfg).eval(), (_ids(),)


def llama():
    from transformers import LlamaConfig, LlamaForCausalLM
    torch.manual_seed(0)
    cfg = LlamaConfig(num_hidden_layers=2, hidden_size=64, intermediate_size=128,
                      num_attention_heads=4, num_key_value_heads=2, vocab_size=VOCAB,
                      max_position_embeddings=64, bos_token_id=0, eos_token_id=0, pad_token_id=0)
    return LlamaForCausalLM(cfg).eval(), (_ids(),)


def bert():
    from transformers import BertConfig, BertModel
    torch.manual_seed(0)
    cfg = BertConfig(num_hidden_layers=2, hidden_size=64, intermediate_size=128,
                     num_attention_heads=4, vocab_size=VOCAB, max_position_embeddings=64)
    ids = _ids()
    return BertModel(cfg).eval(), (ids,), {"attention_mask": torch.ones_like(ids)}


def t5():
    from transformers import T5Config, T5ForConditionalGeneration
    torch.manual_seed(0)
    cfg = T5Config(num_layers=2, num_decoder_layers=2, d_model=64, d_ff=128, d_kv=16,
                   num_heads=4, vocab_size=VOCAB, decoder_start_token_id=0, pad_token_id=0,
                   eos_token_id=1)
    return T5ForConditionalGeneration(cfg).eval(), (), {"input_ids": _ids(),
                                                       "decoder_input_ids": _ids(seq=8)}


def vit():
    from transformers import ViTConfig, ViTModel
    torch.manual_seed(0)
    cfg = ViTConfig(num_hidden_layers=2, hidden_size=64, intermediate_size=128,
                    num_attention_heads=4, image_size=32, patch_size=8, num_channels=3)
    return ViTModel(cfg).eval(), (torch.randn(2, 3, 32, 32),)
