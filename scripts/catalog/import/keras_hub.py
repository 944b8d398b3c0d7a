"""Extracts the exact parameter counts KerasHub publishes for its language-model presets into
scripts/catalog/inputs/counts/keras-hub.json.

    python3 scripts/catalog/import/keras_hub.py <keras-hub git dir> [rev]

keras_hub/src/models/*/*_presets.py give, per preset, `metadata.params`: the parameter count of the weights
KerasHub converted from the model's own checkpoint, as loaded (a checkpoint's multi-token-prediction layers
are not converted), so each total is marked `loaded`. The files are read as syntax trees (nothing is executed).
A preset is named by KerasHub, not by its Hugging Face repo: PRESET_IDS below names the repo(s) of each preset
taken, from the preset's name and description. Left out: round figures (`14_000_000_000`, estimates), int8
variants, text-only cuts of multimodal models (no repo of their own) and the presets named in SKIPPED with
the reason. The catalog's count test compares each total with the entry of its repo, which checks the mapping
as well.
"""
import ast
import os
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'counts', 'keras-hub.json')


PRESET_IDS = {
    'bloom_560m_multi': ['bigscience/bloom-560m'],
    'bloom_1.1b_multi': ['bigscience/bloom-1b1'],
    'bloom_1.7b_multi': ['bigscience/bloom-1b7'],
    'bloom_3b_multi': ['bigscience/bloom-3b'],
    'bloomz_560m_multi': ['bigscience/bloomz-560m'],
    'bloomz_1.1b_multi': ['bigscience/bloomz-1b1'],
    'bloomz_1.7b_multi': ['bigscience/bloomz-1b7'],
    'bloomz_3b_multi': ['bigscience/bloomz-3b'],
    'falcon_refinedweb_1b_en': ['tiiuae/falcon-rw-1b'],
    'gemma_2b_en': ['google/gemma-2b'],
    'gemma_instruct_2b_en': ['google/gemma-2b-it'],
    'gemma_1.1_instruct_2b_en': ['google/gemma-1.1-2b-it'],
    'code_gemma_2b_en': ['google/codegemma-2b'],
    'code_gemma_1.1_2b_en': ['google/codegemma-1.1-2b'],
    'gemma_7b_en': ['google/gemma-7b'],
    'gemma_instruct_7b_en': ['google/gemma-7b-it'],
    'gemma_1.1_instruct_7b_en': ['google/gemma-1.1-7b-it'],
    'code_gemma_7b_en': ['google/codegemma-7b'],
    'code_gemma_instruct_7b_en': ['google/codegemma-7b-it'],
    'code_gemma_1.1_instruct_7b_en': ['google/codegemma-1.1-7b-it'],
    'gemma2_2b_en': ['google/gemma-2-2b'],
    'gemma2_instruct_2b_en': ['google/gemma-2-2b-it'],
    'gemma2_9b_en': ['google/gemma-2-9b'],
    'gemma2_instruct_9b_en': ['google/gemma-2-9b-it'],
    'gemma2_27b_en': ['google/gemma-2-27b'],
    'gemma2_instruct_27b_en': ['google/gemma-2-27b-it'],
    'shieldgemma_2b_en': ['google/shieldgemma-2b'],
    'shieldgemma_9b_en': ['google/shieldgemma-9b'],
    'shieldgemma_27b_en': ['google/shieldgemma-27b'],
    'vault_gemma_1b_en': ['google/vaultgemma-1b'],
    'gemma3_270m': ['google/gemma-3-270m'],
    'gemma3_instruct_270m': ['google/gemma-3-270m-it'],
    'gemma3_1b': ['google/gemma-3-1b-pt'],
    'gemma3_instruct_1b': ['google/gemma-3-1b-it'],
    'gemma3_4b': ['google/gemma-3-4b-pt'],
    'gemma3_instruct_4b': ['google/gemma-3-4b-it'],
    'gemma3_12b': ['google/gemma-3-12b-pt'],
    'gemma3_instruct_12b': ['google/gemma-3-12b-it'],
    'gemma3_27b': ['google/gemma-3-27b-pt'],
    'gemma3_instruct_27b': ['google/gemma-3-27b-it'],
    'medgemma_4b': ['google/medgemma-4b-pt'],
    'medgemma_instruct_4b': ['google/medgemma-4b-it'],
    'medgemma_1.5_instruct_4b': ['google/medgemma-1.5-4b-it'],
    'medgemma_instruct_27b': ['google/medgemma-27b-it'],
    'medgemma_instruct_27b_text': ['google/medgemma-27b-text-it'],
    'function_gemma_instruct_270m': ['google/functiongemma-270m-it'],
    'translategemma_4b_it': ['google/translategemma-4b-it'],
    'translategemma_12b_it': ['google/translategemma-12b-it'],
    'translategemma_27b_it': ['google/translategemma-27b-it'],
    'embedding_gemma3_300m': ['google/embeddinggemma-300m'],
    'harrier_embedding_oss_270m': ['microsoft/harrier-oss-v1-270m'],
    'harrier_embedding_oss_0.6b': ['microsoft/harrier-oss-v1-0.6b'],
    'gpt2_base_en': ['openai-community/gpt2'],
    'gpt2_medium_en': ['openai-community/gpt2-medium'],
    'gpt2_large_en': ['openai-community/gpt2-large'],
    'gpt2_extra_large_en': ['openai-community/gpt2-xl'],
    'gpt_oss_20b_en': ['openai/gpt-oss-20b'],
    'gpt_oss_120b_en': ['openai/gpt-oss-120b'],
    'gpt_oss_safeguard_20b_en': ['openai/gpt-oss-safeguard-20b'],
    'gpt_oss_safeguard_120b_en': ['openai/gpt-oss-safeguard-120b'],
    'llama2_7b_en': ['meta-llama/Llama-2-7b-hf'],
    'llama2_instruct_7b_en': ['meta-llama/Llama-2-7b-chat-hf'],
    'vicuna_1.5_7b_en': ['lmsys/vicuna-7b-v1.5'],
    'llama3_8b_en': ['meta-llama/Meta-Llama-3-8B'],
    'llama3_instruct_8b_en': ['meta-llama/Meta-Llama-3-8B-Instruct'],
    'llama3.1_8b': ['meta-llama/Llama-3.1-8B'],
    'llama3.1_instruct_8b': ['meta-llama/Llama-3.1-8B-Instruct'],
    'llama3.1_guard_8b': ['meta-llama/Llama-Guard-3-8B'],
    'llama3.2_1b': ['meta-llama/Llama-3.2-1B'],
    'llama3.2_instruct_1b': ['meta-llama/Llama-3.2-1B-Instruct'],
    'llama3.2_guard_1b': ['meta-llama/Llama-Guard-3-1B'],
    'llama3.2_3b': ['meta-llama/Llama-3.2-3B'],
    'llama3.2_instruct_3b': ['meta-llama/Llama-3.2-3B-Instruct'],
    'mistral_7b_en': ['mistralai/Mistral-7B-v0.1'],
    'mistral_instruct_7b_en': ['mistralai/Mistral-7B-Instruct-v0.1'],
    'mistral_0.2_instruct_7b_en': ['mistralai/Mistral-7B-Instruct-v0.2'],
    'mistral_0.3_7b_en': ['mistralai/Mistral-7B-v0.3'],
    'mistral_0.3_instruct_7b_en': ['mistralai/Mistral-7B-Instruct-v0.3'],
    'magistral_small_2506_en': ['mistralai/Magistral-Small-2506'],
    'magistral_small_2507_en': ['mistralai/Magistral-Small-2507'],
    'mixtral_8_7b_en': ['mistralai/Mixtral-8x7B-v0.1'],
    'mixtral_8_instruct_7b_en': ['mistralai/Mixtral-8x7B-Instruct-v0.1'],
    'phi3_mini_4k_instruct_en': ['microsoft/Phi-3-mini-4k-instruct'],
    'phi3_mini_128k_instruct_en': ['microsoft/Phi-3-mini-128k-instruct'],
    'qwen2.5_0.5b_en': ['Qwen/Qwen2.5-0.5B'],
    'qwen2.5_instruct_0.5b_en': ['Qwen/Qwen2.5-0.5B-Instruct'],
    'qwen2.5_3b_en': ['Qwen/Qwen2.5-3B'],
    'qwen2.5_instruct_32b_en': ['Qwen/Qwen2.5-32B-Instruct'],
    'qwen2.5_instruct_72b_en': ['Qwen/Qwen2.5-72B-Instruct'],
    'qwen2.5_coder_0.5b': ['Qwen/Qwen2.5-Coder-0.5B'],
    'qwen2.5_coder_instruct_0.5b': ['Qwen/Qwen2.5-Coder-0.5B-Instruct'],
    'qwen2.5_coder_1.5b': ['Qwen/Qwen2.5-Coder-1.5B'],
    'qwen2.5_coder_instruct_1.5b': ['Qwen/Qwen2.5-Coder-1.5B-Instruct'],
    'qwen2.5_coder_3b': ['Qwen/Qwen2.5-Coder-3B'],
    'qwen2.5_coder_instruct_3b': ['Qwen/Qwen2.5-Coder-3B-Instruct'],
    'qwen2.5_coder_32b': ['Qwen/Qwen2.5-Coder-32B'],
    'qwen2.5_coder_instruct_32b': ['Qwen/Qwen2.5-Coder-32B-Instruct'],
    'qwen2.5_math_1.5b_en': ['Qwen/Qwen2.5-Math-1.5B'],
    'qwen2.5_math_instruct_1.5b_en': ['Qwen/Qwen2.5-Math-1.5B-Instruct'],
    'qwen2.5_math_7b_en': ['Qwen/Qwen2.5-Math-7B'],
    'qwen2.5_math_instruct_7b_en': ['Qwen/Qwen2.5-Math-7B-Instruct'],
    'qwen3_0.6b_en': ['Qwen/Qwen3-0.6B'],
    'qwen3_1.7b_en': ['Qwen/Qwen3-1.7B'],
    'qwen3_4b_en': ['Qwen/Qwen3-4B'],
    'qwen3_8b_en': ['Qwen/Qwen3-8B'],
    'qwen3_14b_en': ['Qwen/Qwen3-14B'],
    'qwen3_32b_en': ['Qwen/Qwen3-32B'],
    'qwen3_embedding_0.6b_en': ['Qwen/Qwen3-Embedding-0.6B'],
    'qwen3_embedding_4b_en': ['Qwen/Qwen3-Embedding-4B'],
    'qwen3_embedding_8b_en': ['Qwen/Qwen3-Embedding-8B'],
    'qwen3_moe_30b_a3b_en': ['Qwen/Qwen3-30B-A3B'],
    'qwen3_moe_235b_a22b_en': ['Qwen/Qwen3-235B-A22B'],
    'qwen3_coder_instruct_30b_a3b_en': ['Qwen/Qwen3-Coder-30B-A3B-Instruct'],
    'qwen3_5_0.8b_base': ['Qwen/Qwen3.5-0.8B-Base'],
    'qwen3_5_0.8b': ['Qwen/Qwen3.5-0.8B'],
    'qwen3_5_2b_base': ['Qwen/Qwen3.5-2B-Base'],
    'qwen3_5_2b': ['Qwen/Qwen3.5-2B'],
    'qwen3_5_4b_base': ['Qwen/Qwen3.5-4B-Base'],
    'qwen3_5_4b': ['Qwen/Qwen3.5-4B'],
    'qwen3_5_9b_base': ['Qwen/Qwen3.5-9B-Base'],
    'qwen3_5_9b': ['Qwen/Qwen3.5-9B'],
    'qwen3_5_27b': ['Qwen/Qwen3.5-27B'],
    'qwen3_6_27b': ['Qwen/Qwen3.6-27B'],
    'qwen3_5_moe_35b_a3b_base': ['Qwen/Qwen3.5-35B-A3B-Base'],
    'qwen3_5_moe_35b_a3b': ['Qwen/Qwen3.5-35B-A3B'],
    'qwen3_6_moe_35b_a3b': ['Qwen/Qwen3.6-35B-A3B'],
    'qwen_agent_world_35b_a3b': ['Qwen/Qwen-AgentWorld-35B-A3B'],
    'qwen1.5_moe_2.7b_en': ['Qwen/Qwen1.5-MoE-A2.7B'],
    'smollm3_3b_en': ['HuggingFaceTB/SmolLM3-3B'],
}
# Presets whose count is not that of the repo their name suggests.
SKIPPED = {
    'qwen2.5_7b_en': 'described as a 48-layer model; Qwen2.5-7B has 28 layers, and the count is not its checkpoint\'s',
    'qwen2.5_coder_7b': 'the same count as qwen2.5_7b_en (6,993,420,288), not the Qwen2.5-Coder-7B checkpoint\'s',
    'qwen2.5_coder_instruct_7b': 'as qwen2.5_coder_7b',
    'qwen2.5_coder_1.5b': '1,543,434,240 is 280,064 short of the Qwen2.5-Coder-1.5B checkpoint (1,543,714,304, its llmfit total)',
    'qwen2.5_coder_instruct_1.5b': 'as qwen2.5_coder_1.5b',
    'qwen3_embedding_8b_en': 'counts an output layer the Qwen3-Embedding-8B checkpoint does not have',
}


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def presets(commit):
    """(preset, params, path, line) of every preset dict with metadata.params, read as syntax trees."""
    for path in git('ls-tree', '-r', '--name-only', commit, 'keras_hub/src/models').split('\n'):
        if not path.endswith('_presets.py'):
            continue
        for node in ast.walk(ast.parse(git('show', f'{commit}:{path}'))):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values):
                if not (isinstance(key, ast.Constant) and isinstance(value, ast.Dict)):
                    continue
                fields = {k.value: v for k, v in zip(value.keys, value.values) if isinstance(k, ast.Constant)}
                metadata = fields.get('metadata')
                if not isinstance(metadata, ast.Dict):
                    continue
                meta = {k.value: v for k, v in zip(metadata.keys, metadata.values) if isinstance(k, ast.Constant)}
                if 'params' in meta:
                    yield key.value, ast.literal_eval(meta['params']), path, key.lineno


def main():
    commit = git('rev-parse', REV).strip()
    counts = []
    found = set()
    for preset, params, path, line in presets(commit):
        found.add(preset)
        if preset not in PRESET_IDS or preset in SKIPPED or params % 1_000_000 == 0:
            continue
        for repo_id in PRESET_IDS[preset]:
            counts.append({'id': repo_id, 'total': params, 'where': f'{path}:{line} preset {preset}', 'loaded': True})
    missing = set(PRESET_IDS) - found
    if missing:
        raise SystemExit(f'presets no longer there: {sorted(missing)}')
    source = github_source('KerasHub preset metadata (published parameter counts)', 'keras-team/keras-hub', 'keras_hub/src/models/*/*_presets.py',
                           commit, 'Apache-2.0', kind='tree', url_path='keras_hub/src/models')
    write_input(OUT, source, 'counts', sorted(counts, key=lambda c: (c['id'].lower(), c['where'])))


main()
