"""Extracts model shapes from litgpt's config table into scripts/catalog/inputs/configs/litgpt.json.

Run by hand against a litgpt checkout (a git dir, e.g. one `fetch` brought):
    python3 scripts/catalog/import/litgpt.py <litgpt git dir> [rev]
The table (litgpt/config.py) is evaluated in a scratch folder to expand its variant loops; only the numbers
are written out, as Hugging Face config.json fields. litgpt does not record whether the embeddings are tied,
so `tie_word_embeddings` is left out: the catalog build settles it from a published total or drops the entry.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'configs', 'litgpt.json')


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def load_table():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'litgpt_config.py')
        with open(path, 'w') as f:
            f.write(git('show', f'{REV}:litgpt/config.py'))
        spec = importlib.util.spec_from_file_location('litgpt_config', path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


def model_type(c, name):
    """The Hugging Face model_type whose modelling code builds the same modules."""
    if c.mlp_class_name == 'GptNeoxMLP':
        if name.startswith('falcon'):
            return 'falcon'
        if name.startswith('phi-'):
            return 'phi'
        return 'gpt_neox'
    if c.norm_qk_type == 'olmo2':
        return 'olmo2'
    if c.mlp_class_name == 'GemmaMLP':
        return 'gemma3_text' if c.norm_qk else 'gemma2' if c.post_attention_norm else 'gemma'
    if c.norm_class_name == 'LayerNorm':
        return 'olmo' if 'OLMo' in name else 'stablelm'
    if c.mlp_class_name == 'LLaMAMoE':
        return 'qwen3_moe' if c.norm_qk else 'mixtral'
    if c.norm_qk:
        return 'qwen3'
    if c.attn_bias:
        return 'qwen2'
    if name.startswith('Phi-3') or name.startswith('Phi-4') or name.startswith('phi-4'):
        return 'phi3'
    return 'llama'


def hf_config(c, mt):
    cfg = {
        'model_type': mt,
        'vocab_size': c.padded_vocab_size,
        'hidden_size': c.n_embd,
        'num_hidden_layers': c.n_layer,
        'num_attention_heads': c.n_head,
        'num_key_value_heads': c.n_query_groups,
        'head_dim': c.head_size,
        'intermediate_size': c.intermediate_size,
    }
    if mt == 'falcon':
        new = c.n_query_groups not in (1, c.n_head) or not c.shared_attention_norm
        cfg.update(new_decoder_architecture=new, parallel_attn=True, bias=c.bias)
        if new:
            cfg['num_kv_heads'] = c.n_query_groups
        cfg.pop('num_key_value_heads')
    if mt == 'gpt_neox':
        cfg['use_parallel_residual'] = c.parallel_residual
    if mt == 'stablelm':
        cfg['use_qkv_bias'] = bool(c.attn_bias or c.bias)
    if c.mlp_class_name == 'LLaMAMoE':
        cfg['num_experts' if mt == 'qwen3_moe' else 'num_local_experts'] = c.n_expert
        cfg['num_experts_per_tok'] = c.n_expert_per_token
        if c.moe_intermediate_size:
            cfg['moe_intermediate_size'] = c.moe_intermediate_size
    return cfg


def main():
    table = load_table()
    commit = git('rev-parse', REV).strip()
    models = []
    for raw in table.configs:
        c = table.Config(**raw)
        hf = raw['hf_config']
        name = hf['name']
        mt = model_type(c, name)
        # Multimodal Gemma 3 sizes: litgpt has the language model only; the catalog takes them from full configs.
        if mt == 'gemma3_text' and not name.startswith('gemma-3-1b'):
            continue
        models.append({'id': f"{hf['org']}/{name}", 'config': hf_config(c, mt), 'settle': ['tie_word_embeddings'],
                       'where': f"litgpt/config.py, name={raw['name']!r}"})
    source = github_source('litgpt model config table', 'Lightning-AI/litgpt', 'litgpt/config.py', commit, 'Apache-2.0',
                           note='litgpt field names converted to config.json names; padded_vocab_size is the embedding row count. No tie_word_embeddings.')
    write_input(OUT, source, 'models', sorted(models, key=lambda m: m['id'].lower()))


main()
