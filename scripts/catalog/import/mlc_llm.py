"""Extracts the config.json copies in MLC LLM's model presets into scripts/catalog/inputs/configs/mlc-llm.json.

    python3 scripts/catalog/import/mlc_llm.py <mlc-llm git dir> [rev]

python/mlc_llm/model/model_preset.py holds, per preset, a model's config.json as a Python dict. The file is
read as a syntax tree (nothing is executed). A preset's name says which model it is; PRESET_IDS below names
the Hugging Face repo of each preset taken, with the reason where the name alone is not enough.
"""
import ast
import os
import subprocess
import sys

from inputfile import write_input

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
    'codellama_34b': ('codellama/CodeLlama-34b-hf', 'preset name'),
    'tinyllama_1b_chat_v1.0': ('TinyLlama/TinyLlama-1.1B-Chat-v1.0', 'preset name'),
    'mistral_7b': ('mistralai/Mistral-7B-v0.1', 'preset name (vocabulary 32000: v0.1)'),
    'mistral_7b_v03': ('mistralai/Mistral-7B-v0.3', 'preset name'),
    'Mixtral-8x7B-v0.1': ('mistralai/Mixtral-8x7B-v0.1', 'preset name'),
    'phi-1_5': ('microsoft/phi-1_5', '_name_or_path'),
    'phi-2': ('microsoft/phi-2', '_name_or_path'),
    'phi-3_5': ('microsoft/Phi-3.5-mini-instruct', '_name_or_path'),
    'phi-4': ('microsoft/Phi-4-mini-instruct', '_name_or_path'),
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
    source = {
        'title': 'MLC LLM model presets (config.json copies)',
        'repo': 'mlc-ai/mlc-llm',
        'path': PATH,
        'commit': commit,
        'url': f'https://github.com/mlc-ai/mlc-llm/blob/{commit}/{PATH}',
        'licence': 'Apache-2.0',
    }
    write_input(OUT, source, 'models', sorted(records, key=lambda r: r['id'].lower()))


main()
