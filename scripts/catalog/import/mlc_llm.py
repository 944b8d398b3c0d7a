"""Extracts the config.json copies in MLC LLM's model presets into scripts/catalog/inputs/configs/mlc-llm.json.

    python3 scripts/catalog/import/mlc_llm.py <mlc-llm git dir> [rev]

python/mlc_llm/model/model_preset.py holds, per preset, a model's config.json as a Python dict. The file is
read as a syntax tree (nothing is executed). A preset's name says which model it is; PRESET_IDS below names
the Hugging Face repo of each preset taken, with the reason where the name alone is not enough (the catalog's
count test checks those with a published total). The phi-1_5 and phi-2 presets are left out: they copy the
retired `phi-msft` remote-code config, not the config.json transformers reads. The codellama_34b preset is
left out too: its vocab_size 32016 is CodeLlama 7B's and 13B's, while codellama/CodeLlama-34b-hf has 32000
(gpu_poor's copy of its config.json says so, and only 32000 fits the hub total of CodeLlama-34b-Instruct-hf,
33,743,970,304).
"""
import ast
import os
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'configs', 'mlc-llm.json')
PATH = 'python/mlc_llm/model/model_preset.py'

# preset -> (Hugging Face id, how it is identified)
PRESET_IDS = {
    'llama2_7b': ('meta-llama/Llama-2-7b-hf', 'preset name'),
    'llama2_13b': ('meta-llama/Llama-2-13b-hf', '_name_or_path'),
    'llama2_70b': ('meta-llama/Llama-2-70b-hf', 'preset name'),
    'codellama_7b': ('codellama/CodeLlama-7b-hf', '_name_or_path'),
    'codellama_13b': ('codellama/CodeLlama-13b-hf', 'preset name'),
    'tinyllama_1b_chat_v1.0': ('TinyLlama/TinyLlama-1.1B-Chat-v1.0', 'preset name'),
    'mistral_7b': ('mistralai/Mistral-7B-v0.1', 'preset name (vocabulary 32000: v0.1)'),
    'mistral_7b_v03': ('mistralai/Mistral-7B-v0.3', 'preset name'),
    'Mixtral-8x7B-v0.1': ('mistralai/Mixtral-8x7B-v0.1', 'preset name'),
    'phi-3_5': ('microsoft/Phi-3.5-mini-instruct', '_name_or_path'),
    'phi-4': ('microsoft/Phi-4-mini-instruct', '_name_or_path'),
    # tie_word_embeddings True is Qwen's (MLC's Qwen2 model ignored it until mlc-ai/mlc-llm#2535): the hub
    # checkpoint repeats lm_head, as Qwen1.5-0.5B-Chat's does (vllm-project/vllm#3344), so its total reads untied.
    'qwen2': ('Qwen/Qwen1.5-1.8B-Chat', '_name_or_path'),
    'qwen2moe': ('Qwen/Qwen1.5-MoE-A2.7B', 'the only qwen2_moe model with 60 experts of width 1408 and 24 layers'),
    'deepseek_v2_lite': ('deepseek-ai/DeepSeek-V2-Lite', 'preset name'),
    'gemma_2b': ('google/gemma-2b', 'preset name'),
    'gemma2_2b': ('google/gemma-2-2b', 'preset name'),
    'gemma2_9b': ('google/gemma-2-9b', 'preset name'),
    'gemma2_27b': ('google/gemma-2-27b', 'preset name'),
    'gemma3_1b_it': ('google/gemma-3-1b-it', 'preset name'),
    'llama3_1_8b': ('meta-llama/Llama-3.1-8B', 'preset name'),
    'llama3_1_70b': ('meta-llama/Llama-3.1-70B', 'preset name'),
    'llama3_2_1b': ('meta-llama/Llama-3.2-1B', 'preset name'),
    'llama3_2_3b': ('meta-llama/Llama-3.2-3B', 'preset name'),
    'stablelm-2-zephyr-1_6b': ('stabilityai/stablelm-2-zephyr-1_6b', 'preset name'),
    'qwen2_0_5b': ('Qwen/Qwen2-0.5B', 'preset name'),
    'qwen2_1_5b': ('Qwen/Qwen2-1.5B', 'preset name'),
    'qwen2_7b': ('Qwen/Qwen2-7B', 'preset name'),
    'qwen2.5_3b': ('Qwen/Qwen2.5-3B', 'preset name'),
    'qwen3_0.6b': ('Qwen/Qwen3-0.6B', 'preset name'),
    'qwen3_1.7b': ('Qwen/Qwen3-1.7B', 'preset name'),
    'internlm2_5_7b': ('internlm/internlm2_5-7b', 'preset name'),
    'smollm2_135m': ('HuggingFaceTB/SmolLM2-135M', 'preset name'),
    'smollm2_360m': ('HuggingFaceTB/SmolLM2-360M', 'preset name'),
    'aya-23': ('CohereForAI/aya-23-8B', 'preset name; hidden size 4096 and 32 layers: the 8B'),
    'olmo2_7b': ('allenai/OLMo-2-1124-7B', 'preset name'),
    'olmo2_13b': ('allenai/OLMo-2-1124-13B', 'preset name'),
    'olmo2_32b': ('allenai/OLMo-2-0325-32B', 'preset name (the only 32B OLMo 2)'),
    'gemma2_2b-jpn': ('google/gemma-2-2b-jpn-it', 'preset name'),
    'gpt2': ('openai-community/gpt2', 'preset name'),
    'gpt2_medium': ('openai-community/gpt2-medium', 'preset name'),
    'gpt_bigcode': ('bigcode/gpt_bigcode-santacoder', 'the gpt_bigcode model of 24 layers, width 2048, vocabulary 49280'),
    'starcoder2': ('bigcode/starcoder2-7b', 'the StarCoder2 of width 4608 and 32 layers (the 7B)'),
    'baichuan': ('baichuan-inc/Baichuan2-7B-Base', 'vocabulary 125696 is Baichuan 2\'s, width 4096 its 7B'),
    'internlm': ('internlm/internlm-7b', 'the first-generation InternLM of width 4096 (vocabulary 103168)'),
    'qwen': ('Qwen/Qwen-1_8B', 'the first-generation Qwen of width 2048 and 24 layers'),
    'deepseek': ('deepseek-ai/deepseek-moe-16b-base', 'the DeepSeekMoE of 64 routed and 2 shared experts, 28 layers'),
    'orion': ('OrionStarAI/Orion-14B-Base', 'the Orion of width 5120 and 40 layers'),
    'minicpm_2b_sft_bf16': ('openbmb/MiniCPM-2B-sft-bf16', 'preset name'),
    'minicpm-moe-8x2b': ('openbmb/MiniCPM-MoE-8x2B', 'preset name'),
    'chatglm': ('THUDM/chatglm3-6b', 'the ChatGLM of 28 layers and vocabulary 65024 (ChatGLM3-6B; ChatGLM2-6B has the same shape)'),
    'redpajama_3b_v1': ('togethercomputer/RedPajama-INCITE-Base-3B-v1', 'preset name (a 3B RedPajama-INCITE, GPT-NeoX)'),
}


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def main():
    commit = git('rev-parse', REV).strip()
    tree = ast.parse(git('show', f'{REV}:{PATH}'))
    presets = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == 'MODEL_PRESETS':
            for k, v in zip(node.value.keys, node.value.values):
                presets[ast.literal_eval(k)] = (ast.literal_eval(v), k.lineno)
    records = []
    for name, (hf_id, how) in PRESET_IDS.items():
        config, line = presets[name]
        config = {k: v for k, v in config.items() if not k.startswith('_') and k not in ('context_window_size', 'prefill_chunk_size')}
        records.append({'id': hf_id, 'config': config, 'where': f'{PATH}:{line} preset {name!r} ({how})'})
    source = github_source('MLC LLM model presets (config.json copies)', 'mlc-ai/mlc-llm', PATH, commit, 'Apache-2.0')
    write_input(OUT, source, 'models', sorted(records, key=lambda r: r['id'].lower()))


main()
